/** Texts of the accounts screen(s). */
import { defineMessages } from '../defineMessages';

export const accounts = defineMessages({
  en: {},
  cs: {},
});
