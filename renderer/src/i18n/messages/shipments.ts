/** Texts of the shipments screen(s). */
import { defineMessages } from '../defineMessages';

export const shipments = defineMessages({
  en: {},
  cs: {},
});
