/** Texts of the printers screen(s). */
import { defineMessages } from '../defineMessages';

export const printers = defineMessages({
  en: {},
  cs: {},
});
