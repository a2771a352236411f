/**
 * Scan-to-close, batch close and end of day behind the RPC contract (shared/contract/workflows.ts).
 * A scan is answered with its number at once and its outcome is pushed (`scan.outcome`), so the
 * page never waits on one scan to send the next: scans queue in the core, in order.
 */
import type { ScanCounters } from '../../shared/contract/workflows';
import type { Handlers } from '../rpc/rpcServer';
import { deskRecent } from './deskRecent';
import { StationError } from '../base/stationError';
import type { Workflows } from './index';
import type { WorkflowDeps } from './workflowDeps';

type WorkflowHandlers = Pick<
  Handlers,
  | 'scan.submit'
  | 'scan.submitted'
  | 'scan.reprint'
  | 'scan.skip'
  | 'scan.answerWeight'
  | 'scan.question'
  | 'scan.pending'
  | 'scan.counters'
  | 'scan.recent'
  | 'batch.collect'
  | 'batch.items'
  | 'batch.remove'
  | 'batch.clear'
  | 'batch.closeAll'
  | 'endOfDay.candidates'
  | 'endOfDay.createProtocol'
  | 'endOfDay.protocols'
  | 'endOfDay.reprintProtocol'
  | 'endOfDay.pickupOrders'
>;

/** Local midnight of `now`: the counters are for the worker's day, not the UTC one. */
function startOfDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function scanCountersOf(deps: WorkflowDeps): ScanCounters {
  const now = deps.clock.now();
  const accountId = deps.session()?.accountId;
  const c = accountId ? deps.repos.scanLog.countsSince(accountId, startOfDay(now)) : {};
  const n = (...keys: (keyof typeof c)[]) => keys.reduce((sum, k) => sum + (c[k] ?? 0), 0);
  return {
    day: localDay(now),
    scanned: Object.values(c).reduce((a, b) => a + (b ?? 0), 0),
    printed: n('printed', 'reprinted', 'closed'),
    spooled: n('spooled'),
    queued: n('queued', 'pending'),
    failed: n('not_found', 'cancelled', 'rejected', 'ambiguous', 'error'),
  };
}

export function createWorkflowHandlers(deps: WorkflowDeps, workflows: Workflows): WorkflowHandlers {
  const { scanToClose, batchClose, endOfDay } = workflows;
  return {
    'scan.submit': async ({ code, ref }) => {
      const { scanId, done } = await scanToClose.submit(code, ref);
      // The outcome is pushed by the workflow's onOutcome; a failure there is already an outcome.
      done.catch(() => undefined);
      return { scanId };
    },
    'scan.submitted': ({ ref }) => scanToClose.submitted(ref),
    'scan.reprint': (p) => scanToClose.reprint(p),
    'scan.skip': ({ scanId }) => scanToClose.skip(scanId),
    'scan.answerWeight': ({ scanId, accept }) => scanToClose.answerWeight(scanId, accept),
    'scan.question': () => scanToClose.question(),
    'scan.pending': () => scanToClose.pendingList(),
    'scan.counters': () => scanCountersOf(deps),
    'scan.recent': () => deskRecent(deps),

    'batch.collect': ({ code, acceptWeight }) => batchClose.collect(code, { acceptWeight }),
    'batch.items': () => batchClose.itemsList(),
    'batch.remove': ({ code }) => {
      batchClose.remove(code);
      return batchClose.items();
    },
    'batch.clear': () => {
      batchClose.clear();
      return batchClose.items();
    },
    'batch.closeAll': () => batchClose.closeAll(),

    'endOfDay.candidates': (p) => endOfDay.candidates(p),
    'endOfDay.createProtocol': (p) => endOfDay.createProtocol(p),
    'endOfDay.protocols': () => endOfDay.protocols(),
    'endOfDay.reprintProtocol': ({ collectionProtocolId }) => endOfDay.reprintProtocol(collectionProtocolId),
    'endOfDay.pickupOrders': ({ fromDay }) => {
      if (!deps.session()) throw new StationError('login_required', 'The station is not logged in to the service.');
      return endOfDay.pickupOrders(fromDay);
    },
  };
}
