/** What every handler works with: the store, the clock, and in-memory state that needs no persistence. */
import type { SandboxClock } from './clock';
import type { PendingAuthorizations } from './oauth/pending';
import type { SandboxStore } from './store/index';
import type { FaultTable } from './admin/faults';

export interface Services {
  store: SandboxStore;
  clock: SandboxClock;
  pending: PendingAuthorizations;
  faults: FaultTable;
}
