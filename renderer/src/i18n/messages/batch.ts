/** Texts of the batch screen(s). */
import { defineMessages } from '../defineMessages';

export const batch = defineMessages({
  en: {},
  cs: {},
});
