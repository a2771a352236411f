/**
 * The one state machine of "close and print", used by every path that closes or prints (scan,
 * batch, the Shipments screen, New shipment, reprint). It moves journal entries
 * (electron/store/journalRepo.ts) through their steps, committing each before its side effect:
 *
 *   resolved ──commit close_requested──▶ PATCH close ──▶ closed ──fetch labels──▶ queued (jobs + links, one commit)
 *
 * A close whose answer was lost stays `close_requested`; the next run reads the shipment at the
 * service first (closed: its labels are fetched and held for the worker's word, as another desk may
 * have closed and printed it; still prepared: close it; cancelled: end) — never a blind second
 * close, never a closed shipment left without its labels or a label printed twice unasked. Trouble that may pass (no
 * answer, logged out) leaves the entry at its step, waiting; an answer that refuses ends it.
 */
import type { LabelRoute, RoutingRules } from '../../shared/contract/printing';
import { isClosedState, shipmentStates, type Shipment } from '../../shared/contract/shipments';
import { backoffDelay } from '../queue/backoff';
import type { JournalOutcome } from '../../shared/errors/codes';
import type { JournalEntry, JournalStep } from '../store/journalRepo';
import type { NewPrintJob, StoredJob } from '../store/printJobsRepo';
import { groupBy } from '../base/groupBy';
import { nextTurn, READS_PER_TURN } from '../base/slices';
import { closeShipments, type ShipmentCloseResult } from './closeShipments';
import { fetchLabelJobs, storedLabelJobs } from './labelJobs';
import type { WorkflowError } from './schemas';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export type EntryResult =
  /** Closed (here or before) and its labels are print jobs now. */
  | { kind: 'queued'; shipment: Shipment; jobs: StoredJob[] }
  /** Closed, but its labels cannot be had (the service refused them, no printer route): ended. */
  | { kind: 'not_printed'; shipment: Shipment; error: WorkflowError }
  /** Waits at its step for the service or a login; runs again by itself. `closed`: the shipment is closed already. */
  | { kind: 'waiting'; shipment: Shipment | null; closed: boolean; trouble: Trouble }
  /** The close was refused (closed elsewhere, cancelled, the carrier said no): ended. */
  | { kind: 'refused'; close: Extract<ShipmentCloseResult, { kind: 'closed_elsewhere' | 'cancelled' | 'rejected' }> }
  /** The shipment is not known to the station or the service: ended. */
  | { kind: 'missing'; error: WorkflowError };

/** Waits: 2 s, 4 s ... up to a minute, and at once when the service or a login comes back. */
const RETRY = { baseMs: 2000, maxMs: 60_000 };

const routeKey = (r: LabelRoute | null) => (r ? JSON.stringify(r) : '');

/** Entries per commit when jobs are queued: small enough that one commit is a short block of the loop. */
const QUEUE_SLICE = 25;

/** Entries per commit of a batch's step (`close_requested`, `closed`): 500 in one commit held the loop for ~8–35 ms. */
const STEP_SLICE = 50;

/**
 * The entries in slices of QUEUE_SLICE, each committed on its own; one slice when a job belongs to
 * several entries (a PDF sheet of several shipments belongs to each of them: one commit).
 */
function slicesOf(entryIds: number[], jobs: Map<number, { shared: NewPrintJob[]; own: NewPrintJob[] }>): number[][] {
  const owners = new Map<NewPrintJob, number>();
  for (const id of entryIds)
    for (const j of [...jobs.get(id)!.own, ...jobs.get(id)!.shared]) owners.set(j, (owners.get(j) ?? 0) + 1);
  const shared = [...owners.values()].some((n) => n > 1);
  if (shared || entryIds.length <= QUEUE_SLICE) return [entryIds];
  const out: number[][] = [];
  for (let i = 0; i < entryIds.length; i += QUEUE_SLICE) out.push(entryIds.slice(i, i + QUEUE_SLICE));
  return out;
}

export function createCloseAndPrint(deps: WorkflowDeps) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();

  /**
   * A step for many entries in slices of STEP_SLICE, a turn apart. Each slice is a lazy commit
   * but, when `durable`, the last: FULL, it takes the earlier ones to the disk with it (WAL keeps
   * commits in order: store/lazyCommit.ts).
   */
  async function stepInSlices(ids: number[], step: JournalStep, durable: boolean): Promise<void> {
    for (let i = 0; i < ids.length; i += STEP_SLICE) {
      if (i > 0) await nextTurn();
      const last = i + STEP_SLICE >= ids.length;
      journal.step(ids.slice(i, i + STEP_SLICE), step, now(), { noSideEffect: !(durable && last) });
    }
  }

  /**
   * In the commit that replaces them: the entries of each waiting job a new print took over (a scan
   * whose label waited, printed again from Shipments) hold the new jobs of its shipments too, so
   * the scan follows them and counts as printed once they are out, not as "print cancelled".
   */
  function linkReplaced(inserted: StoredJob[], replaced: StoredJob[]): void {
    for (const old of replaced) {
      const takers = inserted.filter((j) => j.deliveryIds.some((d) => old.deliveryIds.includes(d))).map((j) => j.id);
      if (takers.length) journal.follow(old.id, takers);
    }
  }

  /**
   * Shipments this station closed leave the problem shelf, whichever path closed them (a scan after
   * the worker's Enter, the Shipments screen, a batch). After the `closed` step: a restart that finds
   * the entry `close_requested` confirms the close and comes here again.
   */
  function leftShelf(accountId: string, deliveryIds: number[]): void {
    if (deliveryIds.length && deps.repos.shelf.closed(accountId, deliveryIds, now()) > 0) deps.shelfChanged?.();
  }

  function wait(e: JournalEntry, t: Trouble): void {
    const at = now();
    const retry = t.kind === 'login' ? null : new Date(at.getTime() + backoffDelay(e.attempts + 1, RETRY));
    journal.wait([e.id], at, { reasonCode: t.error.code, reason: t.error.message, nextRetryAt: retry });
    if (t.kind === 'unreachable') deps.serviceTrouble?.();
  }

  /** `deliveryId`: the parcel an entry ended on without resolving it (a rescan), so its trail shows the scan. */
  function end(e: JournalEntry, outcome: JournalOutcome, error: WorkflowError | null, deliveryId?: number): void {
    journal.step([e.id], 'ended', now(), {
      outcome,
      reasonCode: error?.code ?? null,
      reason: error?.message ?? null,
      ...(deliveryId !== undefined ? { deliveryId } : {}),
    });
  }

  /** The shipments could not even be read: every entry waits at its step. */
  function waitAll(entries: JournalEntry[], t: Trouble, closed: boolean, results: Map<number, EntryResult>): void {
    for (const e of entries) {
      wait(e, t);
      results.set(e.id, { kind: 'waiting', shipment: null, closed, trouble: t });
    }
  }

  /** The cached shipments of the entries; those the cache lacks are read from the service. */
  async function shipmentsOf(
    session: WorkflowSession,
    entries: JournalEntry[],
  ): Promise<Map<number, Shipment> | Trouble> {
    const ids = [...new Set(entries.map((e) => e.deliveryId!))];
    const out = new Map<number, Shipment>();
    const missing: number[] = [];
    // Read once each, in slices with the event loop running between them (a batch of 500 is no one long block).
    for (let i = 0; i < ids.length; i++) {
      if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
      const s = deps.repos.shipments.get(session.accountId, ids[i]!);
      if (s) out.set(ids[i]!, s);
      else missing.push(ids[i]!);
    }
    if (missing.length) {
      try {
        deps.recordDeliveries(session.accountId, await session.client.getDeliveriesByIds(missing));
      } catch (err) {
        return classifyTrouble(err);
      }
      for (const id of missing) {
        const s = deps.repos.shipments.get(session.accountId, id);
        if (s) out.set(id, s);
      }
    }
    return out;
  }

  /** Entries whose close was sent and never answered: the service says what happened. */
  async function reconcile(
    session: WorkflowSession,
    entries: JournalEntry[],
    results: Map<number, EntryResult>,
  ): Promise<JournalEntry[]> {
    if (!entries.length) return [];
    const ids = entries.map((e) => e.deliveryId!);
    try {
      deps.recordDeliveries(session.accountId, await session.client.getDeliveriesByIds(ids));
    } catch (err) {
      const t = classifyTrouble(err);
      for (const e of entries) {
        wait(e, t);
        results.set(e.id, {
          kind: 'waiting',
          shipment: deps.repos.shipments.get(session.accountId, e.deliveryId!) ?? null,
          closed: false,
          trouble: t,
        });
      }
      return [];
    }
    const again: JournalEntry[] = [];
    const confirmed = entries.filter((e) =>
      isClosedState(deps.repos.shipments.get(session.accountId, e.deliveryId!)?.state ?? -1),
    );
    journal.step(
      confirmed.map((e) => e.id),
      'closed',
      now(),
      { reasonCode: 'close_confirmed_by_search', noSideEffect: true },
    );
    leftShelf(
      session.accountId,
      confirmed.map((e) => e.deliveryId!),
    );
    for (const e of entries) {
      const s = deps.repos.shipments.get(session.accountId, e.deliveryId!);
      if (s && isClosedState(s.state)) continue;
      else if (s && s.state === shipmentStates.prepared) again.push(e);
      else if (s && s.state === shipmentStates.cancelled) {
        end(e, 'cancelled', null);
        results.set(e.id, { kind: 'refused', close: { kind: 'cancelled', shipment: s } });
      } else {
        const error: WorkflowError = {
          code: 'not_found',
          message: `Shipment ${e.deliveryId} is not known to the service.`,
        };
        end(e, 'not_found', error);
        results.set(e.id, { kind: 'missing', error });
      }
    }
    return again;
  }

  async function close(
    session: WorkflowSession,
    entries: JournalEntry[],
    results: Map<number, EntryResult>,
    notSent: ReadonlySet<number>,
  ): Promise<void> {
    if (!entries.length) return;
    const found = await shipmentsOf(session, entries);
    if (!(found instanceof Map)) return waitAll(entries, found, false, results);
    const todo: JournalEntry[] = [];
    for (const e of entries) {
      if (found.has(e.deliveryId!)) todo.push(e);
      else {
        const error: WorkflowError = {
          code: 'not_in_cache',
          message: `Shipment ${e.deliveryId} is not known on this station or at the service.`,
        };
        end(e, 'not_found', error);
        results.set(e.id, { kind: 'missing', error });
      }
    }
    if (!todo.length) return;
    // Committed before the request leaves: a crash from here on is reconciled, not closed again
    // (entries received as `close_requested` have theirs on the disk already).
    // In slices (500 entries in one commit held the loop ~35 ms), durable before the request
    // leaves. A crash between slices leaves the rest `resolved`, which a restart closes as any
    // resolved entry.
    await stepInSlices(
      todo.filter((e) => !notSent.has(e.id)).map((e) => e.id),
      'close_requested',
      true,
    );
    const closed = await closeShipments(
      deps,
      session,
      todo.map((e) => found.get(e.deliveryId!)!),
    );
    // Lazy commits for every shipment the service closed. They allow no side effect (labels are read
    // next; the jobs' commit that allows printing is FULL and takes this one to the disk with it):
    // lost in a power cut, the entry is `close_requested` and the service is asked what happened.
    const closedNow = (e: JournalEntry, proven: boolean) => {
      const r = closed.get(e.deliveryId!);
      return r?.kind === 'closed' && r.proven === proven;
    };
    await stepInSlices(
      todo.filter((e) => closedNow(e, true)).map((e) => e.id),
      'closed',
      false,
    );
    // Found closed by the search after a lost answer: maybe another desk's close (see `print`).
    journal.step(
      todo.filter((e) => closedNow(e, false)).map((e) => e.id),
      'closed',
      now(),
      { reasonCode: 'close_confirmed_by_search', noSideEffect: true },
    );
    leftShelf(
      session.accountId,
      todo.filter((e) => closed.get(e.deliveryId!)?.kind === 'closed').map((e) => e.deliveryId!),
    );
    for (const e of todo) {
      const r = closed.get(e.deliveryId!);
      if (!r) {
        const t = classifyTrouble({
          code: 'service_unreachable',
          message: 'The close gave no result for this shipment.',
        });
        wait(e, t);
        results.set(e.id, { kind: 'waiting', shipment: found.get(e.deliveryId!)!, closed: false, trouble: t });
        continue;
      }
      switch (r.kind) {
        case 'closed':
          break;
        case 'unreachable':
        case 'login':
          wait(e, r.trouble);
          results.set(e.id, {
            kind: 'waiting',
            shipment: found.get(e.deliveryId!)!,
            closed: false,
            trouble: r.trouble,
          });
          break;
        case 'closed_elsewhere':
          end(e, 'closed_elsewhere', null);
          results.set(e.id, { kind: 'refused', close: r });
          break;
        case 'cancelled':
          end(e, 'cancelled', null);
          results.set(e.id, { kind: 'refused', close: r });
          break;
        case 'rejected':
          end(e, 'rejected', {
            code: r.status === 404 ? 'not_found' : 'carrier_rejected',
            message: [r.message, ...r.messages].join(' | '),
          });
          results.set(e.id, { kind: 'refused', close: r });
          break;
      }
    }
  }

  /**
   * The jobs held for the worker's word: those of entries that found their shipment closed by a
   * read (reconciled after a lost answer, or the search after one) while this station's journal has
   * no close of it the service answered. Another desk may have closed it in that time and printed
   * its label (spec "PATCH /api/v3/deliveries": a closed shipment cannot be closed again, and
   * nothing in a shipment says who closed it), so no label of it prints by itself: it waits in the
   * print queue with that reason (heldForWorker), as a scan of a parcel closed elsewhere waits for
   * Enter. A PDF sheet shared with such a shipment is held whole.
   */
  function heldJobs(
    session: WorkflowSession,
    entryIds: number[],
    jobsByEntry: Map<number, { shared: NewPrintJob[]; own: NewPrintJob[] }>,
  ): Set<NewPrintJob> {
    const held = new Set<NewPrintJob>();
    for (const id of entryIds) {
      const e = journal.get(id)!;
      if (e.want !== 'close_and_print' || !journal.closeFoundByRead(id)) continue;
      if (journal.closedHere(session.accountId, e.deliveryId!)) continue;
      for (const j of [...jobsByEntry.get(id)!.own, ...jobsByEntry.get(id)!.shared]) held.add(j);
    }
    return held;
  }

  /** The routing rules, or the route the worker chose for these carriers (and nothing else). */
  function rulesFor(route: LabelRoute | null, carriers: string[], rules = deps.routes()): RoutingRules {
    return route
      ? {
          carriers: Object.fromEntries(carriers.map((c) => [c, route])),
          defaultRoute: null,
          protocolPrinterId: rules.protocolPrinterId,
        }
      : rules;
  }

  /**
   * Labels of closed entries: stored ones when they fit (a reprint, or a restart after the labels
   * were kept), fetched otherwise; then the jobs, their links and the step in one commit.
   */
  async function print(
    session: WorkflowSession,
    entries: JournalEntry[],
    results: Map<number, EntryResult>,
  ): Promise<void> {
    if (!entries.length) return;
    const found = await shipmentsOf(session, entries);
    if (!(found instanceof Map)) return waitAll(entries, found, true, results);
    const byRoute = groupBy(entries, (e) => routeKey(e.route));

    // The station's rules read once (a setting parsed per shipment was a block of the loop in a batch of 500).
    const stationRules = deps.routes();
    for (const group of byRoute.values()) {
      const prints = new Map<number, NewPrintJob[]>();
      const toFetch: Shipment[] = [];
      for (const [i, e] of group.entries()) {
        if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
        const s = found.get(e.deliveryId!);
        if (!s) continue;
        const stored = storedLabelJobs(
          deps.repos.labels,
          rulesFor(e.route, [s.agent ?? ''], stationRules),
          session.accountId,
          s,
        );
        if (stored) prints.set(e.id, stored);
        else toFetch.push(s);
      }
      const rules = rulesFor(
        group[0]!.route,
        toFetch.map((s) => s.agent ?? ''),
        stationRules,
      );
      const fetched = toFetch.length
        ? await fetchLabelJobs({ session, labels: deps.repos.labels, rules, now }, toFetch)
        : { prints: [], failures: [] };

      // A PDF job may hold several shipments: it belongs to each of their entries.
      const sharedOf = new Map<number, NewPrintJob[]>();
      for (const j of fetched.prints) {
        for (const id of j.deliveryIds ?? []) {
          const list = sharedOf.get(id);
          if (!list) sharedOf.set(id, [j]);
          else if (list[list.length - 1] !== j) list.push(j);
        }
      }
      const failureOf = new Map<number, (typeof fetched.failures)[number]>();
      for (const f of fetched.failures) for (const id of f.deliveryIds) if (!failureOf.has(id)) failureOf.set(id, f);
      const jobsByEntry = new Map<number, { shared: NewPrintJob[]; own: NewPrintJob[] }>();
      for (const e of group) {
        const failure = failureOf.get(e.deliveryId!);
        const s = found.get(e.deliveryId!);
        if (!s) {
          const error: WorkflowError = {
            code: 'not_in_cache',
            message: `Shipment ${e.deliveryId} is not known on this station.`,
          };
          end(e, 'not_found', error);
          results.set(e.id, { kind: 'missing', error });
        } else if (failure) {
          if (failure.trouble.kind === 'answered') {
            end(e, 'not_printed', failure.trouble.error);
            results.set(e.id, { kind: 'not_printed', shipment: s, error: failure.trouble.error });
          } else {
            wait(e, failure.trouble);
            results.set(e.id, { kind: 'waiting', shipment: s, closed: true, trouble: failure.trouble });
          }
        } else {
          const own = prints.get(e.id) ?? [];
          const shared = sharedOf.get(e.deliveryId!) ?? [];
          if (own.length + shared.length === 0) {
            const error: WorkflowError = { code: 'no_labels', message: `No labels came for shipment ${e.deliveryId}.` };
            end(e, 'not_printed', error);
            results.set(e.id, { kind: 'not_printed', shipment: s, error });
          } else jobsByEntry.set(e.id, { shared, own });
        }
      }
      if (!jobsByEntry.size) continue;
      const entryIds = [...jobsByEntry.keys()];
      const held = heldJobs(session, entryIds, jobsByEntry);
      const deliveryOf = new Map(group.map((e) => [e.id, e.deliveryId!]));
      // One label per parcel: a job of the same shipments still waiting in the queue is replaced by
      // these (only when these jobs hold all of its shipments: an A4 sheet of others stays).
      const covered = new Set(entryIds.map((id) => deliveryOf.get(id)!));
      const fresh = new Set<number>();
      const stored: StoredJob[] = [];
      for (const [n, slice] of slicesOf(entryIds, jobsByEntry).entries()) {
        // Each slice is its own commit: its jobs, their links and its entries' step (the entries of
        // later slices stay `closed` with their labels kept, so a crash between slices loses nothing),
        // and the event loop runs between slices (a batch of 500 is no one long block).
        if (n > 0 || entryIds.length > QUEUE_SLICE) await nextTurn();
        const all = [...new Set(slice.flatMap((id) => [...jobsByEntry.get(id)!.own, ...jobsByEntry.get(id)!.shared]))];
        stored.push(
          ...deps.queue.enqueueAll(
            all,
            (inserted) => {
              const idOf = new Map(all.map((p, i) => [p, inserted[i]!.id]));
              for (const id of slice) {
                const x = jobsByEntry.get(id)!;
                journal.queued(
                  id,
                  [...x.own, ...x.shared].map((p) => idOf.get(p)!),
                  now(),
                );
              }
              for (const j of inserted) fresh.add(j.id);
              const replaced = new Set<number>();
              for (const id of slice) {
                for (const j of journal.jobIdsOfShipment(session.accountId, deliveryOf.get(id)!)) {
                  if (!fresh.has(j) && deps.queue.get(j).deliveryIds.every((x) => covered.has(x))) replaced.add(j);
                }
              }
              return [...replaced];
            },
            linkReplaced,
            held,
          ),
        );
      }
      const storedById = new Map(stored.map((j) => [j.id, j]));
      for (const [i, id] of entryIds.entries()) {
        if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
        const jobs = journal.jobIdsOf(id).flatMap((j) => storedById.get(j) ?? []);
        results.set(id, { kind: 'queued', shipment: found.get(deliveryOf.get(id)!)!, jobs });
      }
    }
  }

  /**
   * Runs entries of one account from their last committed step as far as they go now. Entries
   * already queued or ended are answered from the journal. One close request per carrier + place
   * (closeShipments), one label request per carrier and route.
   */
  async function run(
    session: WorkflowSession,
    all: JournalEntry[],
    closeNotSent: ReadonlySet<number> = new Set(),
  ): Promise<Map<number, EntryResult>> {
    // Claimed before the first await: the background resume never runs an entry a path is running.
    const mine = new Set(journal.claim(all.map((e) => e.id)));
    try {
      return await runClaimed(
        session,
        all.filter((e) => mine.has(e.id)),
        closeNotSent,
      );
    } finally {
      journal.release([...mine]);
    }
  }

  /**
   * `closeNotSent`: entries committed `close_requested` by the commit that received their scan
   * (journal.receiveScans), whose request this run sends first; any other `close_requested` entry
   * may have been sent before a stop, so the service is asked about it before anything else.
   */
  async function runClaimed(
    session: WorkflowSession,
    entries: JournalEntry[],
    closeNotSent: ReadonlySet<number>,
  ): Promise<Map<number, EntryResult>> {
    const results = new Map<number, EntryResult>();
    // The entries as committed now, read in slices (a batch of 500, read after each phase).
    const current = async () => {
      const out: JournalEntry[] = [];
      for (const [i, e] of entries.entries()) {
        if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
        out.push(journal.get(e.id)!);
      }
      return out;
    };
    const before = await current();
    const requested = before.filter((e) => e.step === 'close_requested');
    // Reconciling moves only `close_requested` entries: the `resolved` ones are as read.
    const again = await reconcile(
      session,
      requested.filter((e) => !closeNotSent.has(e.id)),
      results,
    );
    await close(
      session,
      [...before.filter((e) => e.step === 'resolved'), ...requested.filter((e) => closeNotSent.has(e.id)), ...again],
      results,
      closeNotSent,
    );
    await print(
      session,
      (await current()).filter((e) => e.step === 'closed' && !results.has(e.id)),
      results,
    );
    for (const e of entries) {
      if (results.has(e.id)) continue;
      const cur = journal.get(e.id)!;
      const s = deps.repos.shipments.get(session.accountId, cur.deliveryId ?? -1);
      if (cur.step === 'queued' && s)
        results.set(e.id, { kind: 'queued', shipment: s, jobs: journal.jobIdsOf(e.id).map((j) => deps.queue.get(j)) });
      else if (s && cur.outcome === 'not_printed')
        results.set(e.id, {
          kind: 'not_printed',
          shipment: s,
          error: { code: cur.reasonCode ?? 'not_printed', message: cur.reason ?? '' },
        });
      else
        results.set(e.id, {
          kind: 'missing',
          error: {
            code: cur.reasonCode ?? 'unexpected',
            message: cur.reason ?? `The journal entry ${e.id} ended (${cur.outcome ?? cur.step}).`,
          },
        });
    }
    return results;
  }

  return { run, wait, end };
}

export type CloseAndPrint = ReturnType<typeof createCloseAndPrint>;
