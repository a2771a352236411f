/**
 * The scans in the core's line (received, not yet finished), in scan order: the Station screen's
 * "Scans in progress" and the Print queue screen's waiting scans read this one list. Loaded whole
 * on connect, then kept by the `scan.pending` changes (renderer/src/state/followList.ts).
 */
import { create } from 'zustand';
import type { PendingScan } from '../../../shared/contract/workflows';
import { rpc, useConnection } from '../rpc/transport';
import { followList, whenReconnected } from './followList';

export const usePendingScans = create<{ scans: PendingScan[]; reload(): Promise<void> }>(() => ({
  scans: [],
  reload: () => line.reload(),
}));

const line = followList<PendingScan, number>({
  load: async () => {
    const r = await rpc.request('scan.pending', {});
    return r.ok ? { version: r.value.version, list: r.value.scans } : null;
  },
  key: (p) => p.scanId,
  publish: (list) => usePendingScans.setState({ scans: list.sort((a, b) => a.scanId - b.scanId) }),
  onReconnect: whenReconnected(useConnection.subscribe),
});
rpc.on('scan.pending', line.apply);
void line.reload();
