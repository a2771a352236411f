/**
 * The desk's scale and label check, composed once by the station (electron/workflows/wireWorkflows.ts): the scale
 * service (settings, live reading), weigh-before-close and verify-after-print as the scan lane's
 * desk steps, the same weighing for batch mode, and their RPC handlers (shared/contract/scale.ts).
 */
import type { EventName, EventPayload } from '../../shared/contract';
import type { Handlers, Logger } from '../rpc/rpcServer';
import type { Db } from '../store/database';
import type { SettingsRepo } from '../store/settingsRepo';
import { createWeighRepo } from '../store/weighRepo';
import type { BatchDesk } from '../workflows/batchClose';
import type { PackagesScale } from '../workflows/packagesAtDesk';
import type { DeskSteps } from '../workflows/scanToClose';
import type { WorkflowDeps } from '../workflows/workflowDeps';
import { discoverScales } from './discovery';
import { createLabelCheck } from './labelCheck';
import { openScale } from './openScale';
import { createScaleService, type ScaleServiceOptions } from './scaleService';
import { createWeighBeforeClose } from './weighBeforeClose';
import { compareDecimals } from '../../shared/decimal';

export interface DeskOptions {
  db: Db;
  settings: SettingsRepo;
  deps: WorkflowDeps;
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  log: Logger;
  /** Opens a scale (default: the real drivers). */
  open?: ScaleServiceOptions['open'];
}

export function createDesk(o: DeskOptions) {
  const repo = createWeighRepo(o.db);
  let weighing: EventPayload<'scale.weighing'> = null;
  const scale = createScaleService({
    settings: o.settings,
    open: o.open ?? openScale,
    onReading: (r) => {
      // Said once per change (the service pushes only changes): a scale dropping out is in the log.
      if (r.state === 'disconnected' || r.state === 'fault')
        o.log.warn('scale not weighing', { state: r.state, message: r.message });
      o.emit('scale.reading', r);
    },
    onWeighing: (w) => {
      weighing = w;
      o.emit('scale.weighing', w);
    },
  });
  const weigh = createWeighBeforeClose({ deps: o.deps, scale, repo });
  const check = createLabelCheck({
    deps: o.deps,
    repo,
    enabled: () => scale.settings().verifyLabels,
    onExpecting: (e) => o.emit('verify.expecting', e),
  });

  const steps: DeskSteps = {
    weighs: () => scale.enabled(),
    beforeClose: (e, session, ask) => weigh.beforeClose(e, session, ask),
    weighedOf: (entryId, s) => weigh.weighedOf(entryId, s),
    labelQueued: (entryId, accountId, s) => check.expect(entryId, accountId, s),
  };
  /** Batch mode: parcels weighed as they are collected, their weights sent before the batch close. */
  const batch: BatchDesk = {
    ...weigh.batch,
    weighedOf: (entryId, s) => weigh.weighedOf(entryId, s),
    atomically: (fn) => repo.atomically(fn),
  };

  /** Packages at the desk: each box weighed as it lies on the scale; the lane does not weigh the parcel again. */
  const packages: PackagesScale = {
    settledKg() {
      const r = scale.reading();
      return r.state === 'stable' && compareDecimals(r.kg, '0') > 0 ? r.kg : null;
    },
    weighs: () => scale.enabled(),
    recordSent: (entryId, weights) => weigh.batch.record(entryId, weights, 'updated'),
  };

  const handlers: Pick<
    Handlers,
    | 'scale.discover'
    | 'scale.getSettings'
    | 'scale.setSettings'
    | 'scale.reading'
    | 'scale.weighing'
    | 'scale.skipWeighing'
    | 'verify.check'
    | 'verify.expecting'
    | 'verify.unverified'
  > = {
    'scale.discover': () => discoverScales(),
    'scale.getSettings': () => scale.settings(),
    'scale.setSettings': async (s) => {
      const saved = await scale.setSettings(s);
      o.emit('verify.expecting', check.expecting());
      return saved;
    },
    'scale.reading': () => scale.reading(),
    'scale.weighing': () => weighing,
    'scale.skipWeighing': () => ({ skipped: scale.skip() }),
    'verify.check': ({ code }) => check.check(code),
    'verify.expecting': () => check.expecting(),
    'verify.unverified': () => check.unverified(),
  };

  return { scale, steps, batch, packages, handlers, start: () => scale.start(), close: () => scale.close() };
}
