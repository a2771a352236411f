/** Which screen is shown. Screens switch with F-keys (shown on the tabs) or a click. */
import { create } from 'zustand';

export type ScreenId =
  | 'station'
  | 'shelf'
  | 'shipments'
  | 'newShipment'
  | 'queue'
  | 'endOfDay'
  | 'tracking'
  | 'settings'
  | 'status'
  | 'statistics';

interface NavState {
  screen: ScreenId;
  /** What another screen asked this one to show (e.g. tracking of selected shipments). */
  focus: { deliveryIds?: number[] } | null;
  go(screen: ScreenId, focus?: NavState['focus']): void;
}

export const useNav = create<NavState>((set) => ({
  screen: 'station',
  focus: null,
  go: (screen, focus = null) => set({ screen, focus }),
}));
