/** Texts of the tracking screen(s). */
import { defineMessages } from '../defineMessages';

export const tracking = defineMessages({
  en: {},
  cs: {},
});
