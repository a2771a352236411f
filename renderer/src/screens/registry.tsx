/**
 * The station's screens, in tab order, with their keyboard shortcuts. The station screen is first:
 * it is where the worker spends the day, and Esc from anywhere comes back to it.
 */
import type { ComponentType } from 'react';
import type { MessageKey } from '../i18n/en';
import type { ScreenId } from '../state/navStore';
import { EndOfDayScreen } from './endOfDay/EndOfDayScreen';
import { NewShipmentScreen } from './newShipment/NewShipmentScreen';
import { QueueScreen } from './queue/QueueScreen';
import { ShelfScreen } from './shelf/ShelfScreen';
import { SettingsScreen } from './settings/SettingsScreen';
import { ShipmentsScreen } from './shipments/ShipmentsScreen';
import { StationScreen } from './station/StationScreen';
import { StatisticsScreen } from './statistics/StatisticsScreen';
import { StatusScreen } from './StatusScreen';
import { TrackingScreen } from './tracking/TrackingScreen';

export interface ScreenEntry {
  id: ScreenId;
  label: MessageKey;
  /** KeyboardEvent.key of the shortcut. */
  key: string;
  /** The shortcut is Shift and the key (the function keys are all taken). */
  shift?: true;
  Component: ComponentType;
}

export const screens: ScreenEntry[] = [
  { id: 'station', label: 'nav.station', key: 'F1', Component: StationScreen },
  // Beside the Station screen: the parcels held there instead of closed.
  { id: 'shelf', label: 'shelf.nav', key: 'F1', shift: true, Component: ShelfScreen },
  { id: 'shipments', label: 'nav.shipments', key: 'F2', Component: ShipmentsScreen },
  { id: 'newShipment', label: 'nav.newShipment', key: 'F3', Component: NewShipmentScreen },
  { id: 'queue', label: 'nav.queue', key: 'F4', Component: QueueScreen },
  { id: 'endOfDay', label: 'nav.endOfDay', key: 'F6', Component: EndOfDayScreen },
  { id: 'tracking', label: 'nav.tracking', key: 'F7', Component: TrackingScreen },
  { id: 'settings', label: 'nav.settings', key: 'F8', Component: SettingsScreen },
  { id: 'status', label: 'nav.status', key: 'F9', Component: StatusScreen },
  // F10 is the scale's skip, F11 the window's full screen (the Electron menu's accelerator).
  { id: 'statistics', label: 'statistics.nav', key: 'F12', Component: StatisticsScreen },
];
