/**
 * The station's workflows behind the screens, built from one set of dependencies. The composition
 * root calls `createWorkflows` once, points the print queue's close-and-print runner at the scan
 * workflow (done here), feeds the job waiter from the queue's job events, and exposes the methods
 * through the RPC contract.
 */
import { createBatchClose, type BatchCloseOptions } from './batchClose';
import { createEndOfDay } from './endOfDay';
import { createScanToClose, type ScanToCloseOptions } from './scanToClose';
import type { WorkflowDeps } from './workflowDeps';

export { createJobWaiter, type JobWaiter } from './jobWaiter';
export type { WorkflowDeps, WorkflowSession } from './workflowDeps';
export * from './schemas';

export function createWorkflows(deps: WorkflowDeps, opts: { scan?: ScanToCloseOptions; batch?: BatchCloseOptions } = {}) {
  const scanToClose = createScanToClose(deps, opts.scan);
  deps.queue.setCloseAndPrintRunner(scanToClose.runQueuedScan);
  return { scanToClose, batchClose: createBatchClose(deps, opts.batch), endOfDay: createEndOfDay(deps) };
}

export type Workflows = ReturnType<typeof createWorkflows>;
