/**
 * What a person did and the parcels' trails, wired by the composition root (electron/station.ts)
 * before the printing service: the print queue's cancel and "send again now" are recorded with who
 * did them. The audit trail's RPC handlers read the active company's.
 */
import type { DeskWho } from '../../shared/contract/operators';
import { createAuditTrailRepo } from '../store/auditTrailRepo';
import type { StationStore } from '../store/wireStore';
import { createDeskActionsRepo } from '../store/deskActionsRepo';
import { createAuditHandlers } from './auditHandlers';
import { createJobActionRecorder } from './jobActions';

export function wireAudit(o: { store: StationStore; who: () => DeskWho; activeAccountId: () => string | null }) {
  const deskActions = createDeskActionsRepo(o.store.db, o.who);
  const trail = createAuditTrailRepo(o.store.db);
  return {
    deskActions,
    recordJobAction: createJobActionRecorder({ deskActions, trail }),
    handlers: createAuditHandlers({ trail, activeAccountId: o.activeAccountId }),
  };
}
