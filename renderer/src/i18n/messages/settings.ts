/** Texts of the settings screen(s). */
import { defineMessages } from '../defineMessages';

export const settings = defineMessages({
  en: {},
  cs: {},
});
