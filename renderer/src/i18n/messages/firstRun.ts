/** Texts of the firstRun screen(s). */
import { defineMessages } from '../defineMessages';

export const firstRun = defineMessages({
  en: {},
  cs: {},
});
