import { create } from 'zustand';
import type { StationStatus } from '../../../shared/contract/status';
import { errorTextNow } from '../i18n';
import { rpc } from '../rpc/transport';

interface StatusState {
  status: StationStatus | null;
  error: string | null;
  lastTick: string | null;
  load(): Promise<void>;
}

export const useStatus = create<StatusState>((set) => ({
  status: null,
  error: null,
  lastTick: null,
  async load() {
    const r = await rpc.request('station.status', {});
    set(r.ok ? { status: r.value, error: null } : { error: errorTextNow(r.error) });
  },
}));

rpc.on('station.tick', ({ now }) => useStatus.setState({ lastTick: now }));
rpc.on('station.statusChanged', (status) => useStatus.setState({ status }));
