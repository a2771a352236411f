/** Texts of the endOfDay screen(s). */
import { defineMessages } from '../defineMessages';

export const endOfDay = defineMessages({
  en: {},
  cs: {},
});
