/**
 * What the Shipments and Tracking screens do to the shipments a worker selected (contract
 * shared/contract/shipmentActions.ts). Every action checks the cached state first
 * (the service refuses closed or cancelled shipments for close/cancel and unclosed ones for
 * labels/traces: spec "States and transitions" rules 1-2), asks the service only for what can
 * work, and answers per shipment: done, failed (with the service's messages) or skipped (why).
 */
import type { LabelRoute, PrinterView, RoutingRules } from '../../shared/contract/printing';
import type {
  ActionError,
  LabelFormat,
  PrintLabelsParams,
  ShipmentActionResult,
  ShipmentActionSummary,
  ShipmentTraces,
} from '../../shared/contract/shipmentActions';
import { isClosedState, shipmentStates, type Shipment } from '../../shared/contract/shipments';
import type { ReprintWhy } from '../../shared/contract/reprint';
import { isServiceError } from '../api/index';
import type { Handlers } from '../rpc/rpcServer';
import { routeFor } from '../printing/routing';
import { StationError } from '../base/stationError';
import { createCloseAndPrint, type EntryResult } from './closeAndPrint';
import { createPackageReprint } from './packageReprint';
import { recordReprint } from './reprintRecord';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import { labelsInPrinter, type WorkflowDeps, type WorkflowSession } from './workflowDeps';

export interface ShipmentActionsDeps {
  deps: WorkflowDeps;
  /** Printers set up on the station, with their kinds (printLabels picks one that takes the format). */
  printers(): PrinterView[];
  /** Marks shipments cancelled in the cache (the shipments domain's recordCancelled: DELETE answers no data). */
  recordCancelled(accountId: string, deliveryIds: number[]): void;
  /** How long an action waits for its labels to leave the printer before it reports them queued (default 10 s). */
  printWaitMs?: number;
}

type ShipmentActionHandlers = Pick<
  Handlers,
  'shipments.close' | 'shipments.printLabels' | 'shipments.reprint' | 'shipments.cancel' | 'tracking.traces'
>;

const errorOf = (t: Trouble): ActionError => ({
  code: t.error.code,
  message: t.error.message,
  messages: t.kind === 'answered' ? t.messages : [],
});
const err = (code: string, message: string, messages: string[] = []): ActionError => ({ code, message, messages });

const takesZpl = (p: PrinterView) => ['zpl-tcp', 'zpl-usb', 'zpl-spooler', 'virtual-zpl'].includes(p.connection.kind);

function summarise(results: ShipmentActionResult[]): ShipmentActionSummary {
  const count = (o: ShipmentActionResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return { results, done: count('done'), failed: count('failed'), skipped: count('skipped') };
}

/** Why a shipment in this state cannot have labels or traces (spec "States and transitions" rule 2). */
function notClosed(s: Shipment): ActionError {
  return s.state === shipmentStates.cancelled
    ? err('cancelled', `Shipment ${s.deliveryId} is cancelled: it has no labels or traces.`)
    : err(
        'not_closed',
        `Shipment ${s.deliveryId} is not closed yet: labels and traces exist only for closed shipments. Close it first.`,
      );
}

export function createShipmentActions(o: ShipmentActionsDeps) {
  const { deps } = o;
  const printWaitMs = o.printWaitMs ?? 10_000;
  const engine = createCloseAndPrint(deps);
  const reprintPackage = createPackageReprint(deps);
  const now = () => deps.clock.now();

  function session(): WorkflowSession {
    const s = deps.session();
    if (!s)
      throw new StationError(
        'login_required',
        'The station is not logged in to the service. Log in under Settings → Accounts, then try again.',
      );
    return s;
  }

  /** The cached shipments in the order asked, and a skipped result for every id the cache does not hold. */
  function load(s: WorkflowSession, ids: number[]) {
    const found: Shipment[] = [];
    const missing: ShipmentActionResult[] = [];
    for (const id of [...new Set(ids)]) {
      const sh = deps.repos.shipments.get(s.accountId, id);
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

  function skipped(deliveryId: number, state: number | null, error: ActionError): ShipmentActionResult {
    return { deliveryId, outcome: 'skipped', print: 'none', jobIds: [], state, error };
  }
  function failed(deliveryId: number, state: number | null, error: ActionError): ShipmentActionResult {
    return { deliveryId, outcome: 'failed', print: 'none', jobIds: [], state, error };
  }
  const stateOf = (s: WorkflowSession, id: number) => deps.repos.shipments.get(s.accountId, id)?.state ?? null;

  /**
   * Runs journal entries (one per shipment) through the one close-and-print state machine and
   * waits (bounded) for their labels to come out; one result per shipment. An entry that must
   * wait for the service stays in the journal and finishes by itself.
   */
  async function runEntries(
    s: WorkflowSession,
    list: { shipment: Shipment; route: LabelRoute | null }[],
    want: 'close_and_print' | 'print',
    /** A reprint's reason: recorded for each shipment whose labels were queued again. */
    why?: ReprintWhy,
  ): Promise<ShipmentActionResult[]> {
    if (!list.length) return [];
    const entries = deps.repos.journal.begin(
      list.map((x) => ({
        accountId: s.accountId,
        source: 'shipments' as const,
        deliveryId: x.shipment.deliveryId,
        want,
        route: x.route,
      })),
      now(),
    );
    const results = await engine.run(s, entries);
    if (why)
      for (const e of entries) {
        const r = results.get(e.id);
        if (r?.kind === 'queued')
          recordReprint(deps.repos.deskActions, why, now(), {
            accountId: s.accountId,
            deliveryId: e.deliveryId,
            entryId: e.id,
            jobId: r.jobs[0]?.id ?? null,
          });
      }
    return Promise.all(entries.map((e, i) => resultOf(s, list[i]!.shipment, results.get(e.id))));
  }

  async function resultOf(s: WorkflowSession, sh: Shipment, r: EntryResult | undefined): Promise<ShipmentActionResult> {
    if (!r)
      return failed(
        sh.deliveryId,
        sh.state,
        err('close_no_answer', `Closing gave no result for shipment ${sh.deliveryId}.`),
      );
    const base = { deliveryId: sh.deliveryId, outcome: 'done' as const, state: stateOf(s, sh.deliveryId) };
    switch (r.kind) {
      case 'queued': {
        const mine = r.jobs.map((j) => j.id);
        const settled = await deps.jobs.wait(mine, printWaitMs);
        if (settled.kind === 'done') return { ...base, print: 'printed', jobIds: mine, error: null };
        if (settled.kind === 'spooled') return { ...base, print: 'spooled', jobIds: mine, error: null };
        // Waiting for its printer (offline, out of labels): said at once with the printer's reason.
        if (settled.kind === 'waiting')
          return {
            ...base,
            print: 'printer_down',
            jobIds: mine,
            error: err(settled.reason.code, settled.reason.message),
          };
        if (settled.kind === 'failed') {
          const j = settled.job;
          return {
            ...base,
            print: 'printer_down',
            jobIds: mine,
            error: err(
              j.reasonCode ?? 'printer_error',
              j.reason ?? `The printer ${j.printerId ?? ''} did not print the label; it waits in the print queue.`,
            ),
          };
        }
        return { ...base, print: 'queued', jobIds: mine, error: null };
      }
      case 'not_printed':
        return { ...base, print: 'none', jobIds: [], error: err(r.error.code, r.error.message) };
      case 'waiting':
        // Closed already: the labels follow by themselves. Not closed: the journal closes it when the service answers.
        return r.closed
          ? { ...base, print: 'queued', jobIds: [], error: errorOf(r.trouble) }
          : failed(sh.deliveryId, sh.state, errorOf(r.trouble));
      case 'missing':
        return failed(sh.deliveryId, sh.state, err(r.error.code, r.error.message));
      case 'refused': {
        const c = r.close;
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
    }
  }

  /** Spec "PATCH /api/v3/deliveries": closes per carrier + collection place, then prints per routing. */
  async function close(ids: number[]): Promise<ShipmentActionSummary> {
    const s = session();
    const { found, missing } = load(s, ids);
    const out = [...missing];
    const ready: Shipment[] = [];
    for (const sh of found) {
      if (sh.state === shipmentStates.prepared) ready.push(sh);
      else if (sh.state === shipmentStates.cancelled)
        out.push(
          skipped(
            sh.deliveryId,
            sh.state,
            err('cancelled', `Shipment ${sh.deliveryId} is cancelled and cannot be closed.`),
          ),
        );
      else
        out.push(
          skipped(
            sh.deliveryId,
            sh.state,
            err('already_closed', `Shipment ${sh.deliveryId} is already closed. Reprint its labels instead.`),
          ),
        );
    }
    out.push(
      ...(await runEntries(
        s,
        ready.map((shipment) => ({ shipment, route: null })),
        'close_and_print',
      )),
    );
    return summarise(order(ids, out));
  }

  /** The route a carrier's labels take for a format the worker chose (the routed printer when it fits). */
  function chosenRoute(
    rules: RoutingRules,
    carrier: string,
    format: LabelFormat,
    position: number,
    printerId: string | undefined,
  ): LabelRoute | null {
    const routed = routeFor(rules, carrier);
    const printers = o.printers();
    const fits = (id: string | null | undefined, zpl: boolean) =>
      !!id && printers.some((p) => p.id === id && takesZpl(p) === zpl);
    if (format === 'zpl') {
      const id =
        printerId ??
        (routed?.format === 'zpl' && fits(routed.printerId, true) ? routed.printerId : printers.find(takesZpl)?.id);
      if (!id) return null;
      return {
        format: 'zpl',
        printerId: id,
        ...(routed?.format === 'zpl' && routed.size ? { size: routed.size } : {}),
      };
    }
    const wanted = format === 'pdf-roll' ? 'pdf-single' : 'pdf-a4';
    const id =
      printerId ??
      (routed?.format === wanted && fits(routed.printerId, false)
        ? routed.printerId
        : fits(rules.protocolPrinterId, false)
          ? rules.protocolPrinterId
          : printers.find((p) => !takesZpl(p))?.id);
    if (!id) return null;
    return format === 'pdf-roll'
      ? { format: 'pdf-single', printerId: id }
      : { format: 'pdf-a4', printerId: id, position };
  }

  /** Spec "GET /api/v3/deliveries/tickets" (printFormat, position) and ".../zpl": one carrier per request. */
  async function printLabels(p: PrintLabelsParams): Promise<ShipmentActionSummary> {
    const s = session();
    if (p.printerId) {
      const printer = o.printers().find((x) => x.id === p.printerId);
      if (!printer)
        throw new StationError('printer_not_found', `No printer "${p.printerId}" is set up on this station.`, {
          printerId: p.printerId,
        });
      if (takesZpl(printer) !== (p.format === 'zpl')) {
        throw new StationError(
          'printer_format_mismatch',
          `The printer ${printer.name} cannot print ${p.format === 'zpl' ? 'ZPL' : 'PDF'} labels. Pick another printer or format.`,
          { printer: printer.name, format: p.format === 'zpl' ? 'ZPL' : 'PDF' },
        );
      }
    }
    const { found, missing } = load(s, p.deliveryIds);
    const out = [...missing];
    const closed = found.filter((sh) => isClosedState(sh.state));
    for (const sh of found) if (!isClosedState(sh.state)) out.push(skipped(sh.deliveryId, sh.state, notClosed(sh)));

    const rules = deps.routes();
    const chosen: RoutingRules = { carriers: {}, defaultRoute: null, protocolPrinterId: rules.protocolPrinterId };
    const printable: { shipment: Shipment; route: LabelRoute }[] = [];
    for (const sh of closed) {
      const carrier = sh.agent ?? '';
      const route = chosen.carriers[carrier] ?? chosenRoute(rules, carrier, p.format, p.position ?? 1, p.printerId);
      if (!route) {
        out.push(
          failed(
            sh.deliveryId,
            sh.state,
            err(
              'no_printer',
              `No printer on this station takes ${p.format === 'zpl' ? 'ZPL' : 'PDF'} labels. Add one under Settings → Printers.`,
            ),
          ),
        );
        continue;
      }
      chosen.carriers[carrier] = route;
      printable.push({ shipment: sh, route });
    }
    out.push(...(await runEntries(s, printable, 'print')));
    return summarise(order(p.deliveryIds, out));
  }

  /**
   * The labels stored when the shipment was closed, as routed now; fetched again when none fit.
   * With `packageNumber` (one shipment selected), that package's label alone (./packageReprint.ts).
   */
  async function reprint(ids: number[], why: ReprintWhy, packageNumber?: number): Promise<ShipmentActionSummary> {
    const s = session();
    const { found, missing } = load(s, ids);
    const out = [...missing];
    if (packageNumber !== undefined) {
      for (const sh of found) out.push(await reprintOnePackage(s, sh, packageNumber, why));
      return summarise(order(ids, out));
    }
    const closed: Shipment[] = [];
    for (const sh of found) {
      const busy = isClosedState(sh.state) ? labelsInPrinter(deps, s.accountId, sh.deliveryId) : null;
      if (busy) out.push(skipped(sh.deliveryId, sh.state, { ...busy, messages: [] }));
      else if (isClosedState(sh.state)) closed.push(sh);
      else out.push(skipped(sh.deliveryId, sh.state, notClosed(sh)));
    }
    out.push(
      ...(await runEntries(
        s,
        closed.map((shipment) => ({ shipment, route: null })),
        'print',
        why,
      )),
    );
    return summarise(order(ids, out));
  }

  async function reprintOnePackage(
    s: WorkflowSession,
    sh: Shipment,
    packageNumber: number,
    why: ReprintWhy,
  ): Promise<ShipmentActionResult> {
    if (!isClosedState(sh.state)) return skipped(sh.deliveryId, sh.state, notClosed(sh));
    const r = await reprintPackage({ session: s, shipment: sh, packageNumber, why });
    if (r.kind === 'refused') return skipped(sh.deliveryId, sh.state, { ...r.error, messages: [] });
    return resultOf(s, sh, { kind: 'queued', shipment: sh, jobs: [r.job] });
  }

  /** Reads shipments again after a refused request; false when the service cannot be asked. */
  async function reread(s: WorkflowSession, ids: number[]): Promise<boolean> {
    try {
      deps.recordDeliveries(s.accountId, await s.client.getDeliveriesByIds(ids));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Spec "DELETE /api/v3/deliveries": only unclosed, uncancelled shipments. A 422 naming some of
   * them cancelled nothing, so the others are sent again without them (a new request, not a retry).
   */
  async function cancel(ids: number[]): Promise<ShipmentActionSummary> {
    const s = session();
    const { found, missing } = load(s, ids);
    const out = [...missing];
    let todo: Shipment[] = [];
    for (const sh of found) {
      if (sh.state === shipmentStates.prepared) todo.push(sh);
      else if (sh.state === shipmentStates.cancelled)
        out.push(
          skipped(sh.deliveryId, sh.state, err('already_cancelled', `Shipment ${sh.deliveryId} is already cancelled.`)),
        );
      else
        out.push(
          skipped(
            sh.deliveryId,
            sh.state,
            err('already_closed', `Shipment ${sh.deliveryId} is closed: a closed shipment cannot be cancelled.`),
          ),
        );
    }
    for (let round = 0; round < 2 && todo.length; round++) {
      const list = todo.map((sh) => sh.deliveryId);
      todo = [];
      try {
        await s.client.cancelDeliveries(list);
        o.recordCancelled(s.accountId, list);
        for (const id of list)
          out.push({
            deliveryId: id,
            outcome: 'done',
            print: 'none',
            jobIds: [],
            state: shipmentStates.cancelled,
            error: null,
          });
        continue;
      } catch (e) {
        const trouble = classifyTrouble(e);
        if (trouble.kind !== 'answered') {
          for (const id of list) out.push(failed(id, stateOf(s, id), errorOf(trouble)));
          continue;
        }
        const named = new Set(trouble.deliveryIds);
        const known = await reread(s, list);
        for (const id of list) {
          const state = stateOf(s, id);
          if (known && state === shipmentStates.cancelled)
            out.push({ deliveryId: id, outcome: 'done', print: 'none', jobIds: [], state, error: null });
          else if (known && state !== null && isClosedState(state))
            out.push(
              failed(
                id,
                state,
                err('closed_elsewhere', `Shipment ${id} was closed meanwhile: it can no longer be cancelled.`),
              ),
            );
          else if (round === 0 && named.size > 0 && !named.has(id) && state === shipmentStates.prepared)
            todo.push(deps.repos.shipments.get(s.accountId, id)!);
          else {
            const own = isServiceError(e) ? e.errors.filter((x) => x.deliveryId === id).map((x) => x.message) : [];
            out.push(
              failed(id, state, err(trouble.error.code, trouble.error.message, own.length ? own : trouble.messages)),
            );
          }
        }
      }
    }
    // Who cancelled which shipment, for its trail (the service keeps no operator).
    const at = now();
    for (const r of out)
      if (r.outcome === 'done' && r.state === shipmentStates.cancelled)
        deps.repos.deskActions.record({
          action: 'shipment_cancelled',
          at,
          accountId: s.accountId,
          deliveryId: r.deliveryId,
        });
    return summarise(order(ids, out));
  }

  /**
   * Spec "GET /api/v3/deliveries/traces": asked for the closed ones in one request; when the
   * service refuses it (one unclosed or unknown shipment refuses all), each is asked on its own
   * so every shipment gets its own answer. The states are refreshed with them (best effort).
   */
  async function traces(ids: number[]): Promise<ShipmentTraces[]> {
    const s = session();
    const unique = [...new Set(ids)];
    const closed = unique.filter((id) => {
      const st = stateOf(s, id);
      return st === null || isClosedState(st);
    });
    const got = new Map<number, { lastChecked: string | null; traces: { date: string; text: string }[] }>();
    const errors = new Map<number, ActionError>();
    if (closed.length) {
      try {
        for (const t of await s.client.getTraces(closed)) got.set(t.deliveryId, t);
      } catch (e) {
        const trouble = classifyTrouble(e);
        if (trouble.kind !== 'answered' || closed.length === 1)
          for (const id of closed) errors.set(id, errorOf(trouble));
        else {
          for (const id of closed) {
            try {
              for (const t of await s.client.getTraces([id])) got.set(t.deliveryId, t);
            } catch (one) {
              errors.set(id, errorOf(classifyTrouble(one)));
            }
          }
        }
      }
      await reread(s, closed);
    }
    return unique.map((id) => {
      const sh = deps.repos.shipments.get(s.accountId, id);
      const t = got.get(id);
      const error =
        errors.get(id) ??
        (sh && !isClosedState(sh.state)
          ? notClosed(sh)
          : !t
            ? err('no_traces', `The service returned no traces for shipment ${id}.`)
            : null);
      return {
        deliveryId: id,
        deliveryNumber: sh?.deliveryNumber ?? null,
        agent: sh?.agent ?? null,
        state: sh?.state ?? null,
        lastChecked: t?.lastChecked ?? null,
        traces: t?.traces ?? [],
        error,
      };
    });
  }

  const handlers: ShipmentActionHandlers = {
    'shipments.close': ({ deliveryIds }) => close(deliveryIds),
    'shipments.printLabels': (p) => printLabels(p),
    'shipments.reprint': ({ deliveryIds, why, packageNumber }) => reprint(deliveryIds, why, packageNumber),
    'shipments.cancel': ({ deliveryIds }) => cancel(deliveryIds),
    'tracking.traces': ({ deliveryIds }) => traces(deliveryIds),
  };
  return { handlers, close, printLabels, reprint, cancel, traces };
}

/** Results in the order the worker selected the shipments. */
function order(ids: number[], results: ShipmentActionResult[]): ShipmentActionResult[] {
  const pos = new Map<number, number>();
  ids.forEach((id, i) => (pos.has(id) ? undefined : pos.set(id, i)));
  return [...results].sort((a, b) => (pos.get(a.deliveryId) ?? 0) - (pos.get(b.deliveryId) ?? 0));
}

export type ShipmentActions = ReturnType<typeof createShipmentActions>;
