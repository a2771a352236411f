/** Texts of the queue screen(s). */
import { defineMessages } from '../defineMessages';

export const queue = defineMessages({
  en: {},
  cs: {},
});
