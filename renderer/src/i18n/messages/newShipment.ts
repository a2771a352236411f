/** Texts of the newShipment screen(s). */
import { defineMessages } from '../defineMessages';

export const newShipment = defineMessages({
  en: {},
  cs: {},
});
