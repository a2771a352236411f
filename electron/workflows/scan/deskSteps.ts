/** The desk's own steps around a scan's close, when a scale is set up: weigh before it, check the label after it. */
import type { Shipment } from '../../../shared/contract/shipments';
import type { AskWeight, BeforeClose, WeighedInfo } from '../../scale/weighBeforeClose';
import type { JournalEntry } from '../../store/journalRepo';
import type { WorkflowSession } from '../workflowDeps';

export interface DeskSteps {
  /** Scans are weighed before their close (a scale is set up): the close does not follow the scan at once. */
  weighs(): boolean;
  /** A resolved scan, before its close: weigh it (asking the worker through `ask` when a weight is far off); the shipment may be updated at the service. */
  beforeClose(e: JournalEntry, session: WorkflowSession, ask: AskWeight): Promise<BeforeClose>;
  weighedOf(entryId: number, s: Shipment): WeighedInfo | null;
  /** A scan's labels are queued: its label may be checked now. */
  labelQueued(entryId: number, accountId: string, s: Shipment): void;
}
