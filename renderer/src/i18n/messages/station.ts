/** Texts of the station screen(s). */
import { defineMessages } from '../defineMessages';

export const station = defineMessages({
  en: {},
  cs: {},
});
