/**
 * What every shipment action shares (./shipmentActions.ts): the logged-in session, the cached
 * shipments, and the one close-and-print state machine that closes and prints them.
 */
import type { LabelRoute } from '../../shared/contract/printing';
import type { ShipmentActionResult } from '../../shared/contract/shipmentActions';
import type { Shipment } from '../../shared/contract/shipments';
import type { ReprintWhy } from '../../shared/contract/reprint';
import { StationError } from '../base/stationError';
import type { createCloseAndPrint, EntryResult } from './closeAndPrint';
import type { createPackageReprint } from './packageReprint';
import { recordReprint } from './reprintRecord';
import { err, errorOf, failed, skipped } from './shipmentActionResults';
import type { ShipmentActionsDeps } from './shipmentActions';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export interface ActionContext {
  deps: WorkflowDeps;
  o: ShipmentActionsDeps;
  printWaitMs: number;
  engine: ReturnType<typeof createCloseAndPrint>;
  reprintPackage: ReturnType<typeof createPackageReprint>;
  now(): Date;
}

export function session(ctx: ActionContext): WorkflowSession {
  const s = ctx.deps.session();
  if (!s)
    throw new StationError(
      'login_required',
      'The station is not logged in to the service. Log in under Settings → Accounts, then try again.',
    );
  return s;
}

/** The cached shipments in the order asked, and a skipped result for every id the cache does not hold. */
export function load(ctx: ActionContext, s: WorkflowSession, ids: number[]) {
  const found: Shipment[] = [];
  const missing: ShipmentActionResult[] = [];
  for (const id of [...new Set(ids)]) {
    const sh = ctx.deps.repos.shipments.get(s.accountId, id);
    if (sh) found.push(sh);
    else
      missing.push(
        skipped(
          id,
          null,
          err('not_in_cache', `Shipment ${id} is not known on this station. Sync the shipments, then try again.`),
        ),
      );
  }
  return { found, missing };
}

export const stateOf = (ctx: ActionContext, s: WorkflowSession, id: number) =>
  ctx.deps.repos.shipments.get(s.accountId, id)?.state ?? null;

/** Reads shipments again after a refused request; false when the service cannot be asked. */
export async function reread(ctx: ActionContext, s: WorkflowSession, ids: number[]): Promise<boolean> {
  try {
    ctx.deps.recordDeliveries(s.accountId, await s.client.getDeliveriesByIds(ids));
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs journal entries (one per shipment) through the one close-and-print state machine and
 * waits (bounded) for their labels to come out; one result per shipment. An entry that must
 * wait for the service stays in the journal and finishes by itself.
 */
export async function runEntries(
  ctx: ActionContext,
  s: WorkflowSession,
  list: { shipment: Shipment; route: LabelRoute | null }[],
  want: 'close_and_print' | 'print',
  /** A reprint's reason: recorded for each shipment whose labels were queued again. */
  why?: ReprintWhy,
): Promise<ShipmentActionResult[]> {
  if (!list.length) return [];
  const entries = ctx.deps.repos.journal.begin(
    list.map((x) => ({
      accountId: s.accountId,
      source: 'shipments' as const,
      deliveryId: x.shipment.deliveryId,
      want,
      route: x.route,
    })),
    ctx.now(),
  );
  const results = await ctx.engine.run(s, entries);
  if (why)
    for (const e of entries) {
      const r = results.get(e.id);
      if (r?.kind === 'queued')
        recordReprint(ctx.deps.repos.deskActions, why, ctx.now(), {
          accountId: s.accountId,
          deliveryId: e.deliveryId,
          entryId: e.id,
          jobId: r.jobs[0]?.id ?? null,
        });
    }
  return Promise.all(entries.map((e, i) => resultOf(ctx, s, list[i]!.shipment, results.get(e.id))));
}

/** One shipment's answer from what the close-and-print state machine did with its entry. */
export async function resultOf(
  ctx: ActionContext,
  s: WorkflowSession,
  sh: Shipment,
  r: EntryResult | undefined,
): Promise<ShipmentActionResult> {
  if (!r)
    return failed(
      sh.deliveryId,
      sh.state,
      err('close_no_answer', `Closing gave no result for shipment ${sh.deliveryId}.`),
    );
  const base = { deliveryId: sh.deliveryId, outcome: 'done' as const, state: stateOf(ctx, s, sh.deliveryId) };
  switch (r.kind) {
    case 'queued':
      return {
        ...base,
        ...(await printOutcome(
          ctx,
          r.jobs.map((j) => j.id),
        )),
      };
    case 'not_printed':
      return { ...base, print: 'none', jobIds: [], error: err(r.error.code, r.error.message) };
    case 'waiting':
      // Closed already: the labels follow by themselves. Not closed: the journal closes it when the service answers.
      return r.closed
        ? { ...base, print: 'queued', jobIds: [], error: errorOf(r.trouble) }
        : failed(sh.deliveryId, sh.state, errorOf(r.trouble));
    case 'missing':
      return failed(sh.deliveryId, sh.state, err(r.error.code, r.error.message));
    case 'refused':
      return refusedResult(sh, r.close);
  }
}

/** What became of a shipment's queued labels within the wait: printed, spooled, waiting or still queued. */
async function printOutcome(
  ctx: ActionContext,
  mine: number[],
): Promise<Pick<ShipmentActionResult, 'print' | 'jobIds' | 'error'>> {
  const settled = await ctx.deps.jobs.wait(mine, ctx.printWaitMs);
  if (settled.kind === 'done') return { print: 'printed', jobIds: mine, error: null };
  if (settled.kind === 'spooled') return { print: 'spooled', jobIds: mine, error: null };
  // Waiting for its printer (offline, out of labels): said at once with the printer's reason.
  if (settled.kind === 'waiting')
    return { print: 'printer_down', jobIds: mine, error: err(settled.reason.code, settled.reason.message) };
  if (settled.kind === 'failed') {
    const j = settled.job;
    return {
      print: 'printer_down',
      jobIds: mine,
      error: err(
        j.reasonCode ?? 'printer_error',
        j.reason ?? `The printer ${j.printerId ?? ''} did not print the label; it waits in the print queue.`,
      ),
    };
  }
  return { print: 'queued', jobIds: mine, error: null };
}

function refusedResult(sh: Shipment, c: Extract<EntryResult, { kind: 'refused' }>['close']): ShipmentActionResult {
  if (c.kind === 'closed_elsewhere')
    return failed(
      sh.deliveryId,
      c.shipment.state,
      err(
        'closed_elsewhere',
        `Shipment ${sh.deliveryId} was closed elsewhere meanwhile; reprint its labels if needed.`,
      ),
    );
  if (c.kind === 'cancelled')
    return failed(
      sh.deliveryId,
      c.shipment.state,
      err('cancelled', `Shipment ${sh.deliveryId} was cancelled meanwhile.`),
    );
  return failed(sh.deliveryId, sh.state, err('carrier_rejected', c.message, c.messages));
}
