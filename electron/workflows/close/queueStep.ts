/**
 * The close-and-print machine's step from `closed`: the labels and their print jobs (../labelJobs.ts,
 * the one place where a print's routes and labels are decided; those of entries closed in this run
 * were asked for as their close was answered: askLabelsNow), then the jobs, their links and
 * the `queued` step in one commit (a slice of entries at a time). Labels that cannot be had end the entry (`not_printed`)
 * or leave it waiting at `closed`.
 */
import type { LabelRoute, RoutingRules } from '../../../shared/contract/printing';
import type { Shipment } from '../../../shared/contract/shipments';
import { groupBy } from '../../base/groupBy';
import { nextTurn, READS_PER_TURN } from '../../base/slices';
import type { JournalEntry } from '../../store/journalRepo';
import type { NewPrintJob, StoredJob } from '../../store/printJobsRepo';
import { askLabels, labelJobsFor, type LabelJobs } from '../labelJobs';
import type { WorkflowError } from '../schemas';
import { end, endMissing, shipmentsOf, waitWith, type StepCtx } from './entryMoves';

/** An entry's print jobs: its own (from stored labels) and those it shares (a fetched PDF may hold several shipments). */
type EntryJobs = Map<number, { shared: NewPrintJob[]; own: NewPrintJob[] }>;

/** Entries per commit when jobs are queued: small enough that one commit is a short block of the loop. */
const QUEUE_SLICE = 25;

const routeKey = (r: LabelRoute | null) => (r ? JSON.stringify(r) : '');
const jobsOf = (jobs: EntryJobs, id: number) => [...jobs.get(id)!.own, ...jobs.get(id)!.shared];

/**
 * Labels of closed entries: stored ones when they fit (a reprint, or a restart after the labels
 * were kept), fetched otherwise; then the jobs, their links and the step in one commit.
 */
export async function queueStep(ctx: StepCtx, entries: JournalEntry[]): Promise<void> {
  if (!entries.length) return;
  const found = await shipmentsOf(ctx, entries);
  if (!(found instanceof Map)) {
    for (const e of entries) waitWith(ctx, e, found, null, true);
    return;
  }
  // The station's rules read once (a setting parsed per shipment was a block of the loop in a batch of 500).
  const stationRules = ctx.deps.routes();
  for (const group of groupBy(entries, (e) => routeKey(e.route)).values()) {
    const labels = await labelJobsFor(
      printCtx(ctx, stationRules, group),
      group.map((e) => ({ key: e.id, shipment: found.get(e.deliveryId!) })),
      [...new Set(group.flatMap((e) => ctx.asked.get(e.id) ?? []))],
    );
    const jobs = jobsByEntry(ctx, group, found, labels);
    if (jobs.size) await commitJobs(ctx, group, found, jobs);
  }
}

/** What labelJobs.ts decides a group's print with: the entries share their route (`chosen`). */
const printCtx = (ctx: StepCtx, rules: RoutingRules, group: JournalEntry[]) => ({
  session: ctx.session,
  labels: ctx.deps.repos.labels,
  now: () => ctx.deps.clock.now(),
  rules,
  chosen: group[0]!.route,
});

/**
 * The labels of entries the service has just closed, asked for at once (called by closeStep.ts),
 * before the close's bookkeeping: the cache row, the `closed` step and the shelf are written while
 * the request is out. A GET changes nothing at the service, and only queueStep keeps what comes
 * back and queues it, after the `closed` step: the steps' order on the disk is unchanged. Resolves
 * on the next turn, when the request's bytes have left.
 */
export async function askLabelsNow(ctx: StepCtx, entries: JournalEntry[], found: Map<number, Shipment>): Promise<void> {
  if (!entries.length) return;
  const rules = ctx.deps.routes();
  for (const group of groupBy(entries, (e) => routeKey(e.route)).values()) {
    const asked = askLabels(
      printCtx(ctx, rules, group),
      group.map((e) => found.get(e.deliveryId!)!),
    );
    for (const e of group) ctx.asked.set(e.id, asked);
  }
  await nextTurn();
}

/** Each entry's jobs; an entry whose labels cannot be had ends or waits here. */
function jobsByEntry(
  ctx: StepCtx,
  group: JournalEntry[],
  found: Map<number, Shipment>,
  { stored, fetched }: { stored: Map<number, NewPrintJob[]>; fetched: LabelJobs },
): EntryJobs {
  // A PDF job may hold several shipments: it belongs to each of their entries.
  const sharedOf = new Map<number, NewPrintJob[]>();
  for (const j of fetched.prints) {
    for (const id of j.deliveryIds ?? []) {
      const list = sharedOf.get(id);
      if (!list) sharedOf.set(id, [j]);
      else if (list[list.length - 1] !== j) list.push(j);
    }
  }
  const failureOf = new Map<number, LabelJobs['failures'][number]>();
  for (const f of fetched.failures) for (const id of f.deliveryIds) if (!failureOf.has(id)) failureOf.set(id, f);
  const out: EntryJobs = new Map();
  for (const e of group) {
    const failure = failureOf.get(e.deliveryId!);
    const s = found.get(e.deliveryId!);
    if (!s)
      endMissing(ctx, e, { code: 'not_in_cache', message: `Shipment ${e.deliveryId} is not known on this station.` });
    else if (failure && failure.trouble.kind === 'answered') notPrinted(ctx, e, s, failure.trouble.error);
    else if (failure) waitWith(ctx, e, failure.trouble, s, true);
    else {
      const own = stored.get(e.id) ?? [];
      const shared = sharedOf.get(e.deliveryId!) ?? [];
      if (own.length + shared.length > 0) out.set(e.id, { shared, own });
      else notPrinted(ctx, e, s, { code: 'no_labels', message: `No labels came for shipment ${e.deliveryId}.` });
    }
  }
  return out;
}

function notPrinted(ctx: StepCtx, e: JournalEntry, shipment: Shipment, error: WorkflowError): void {
  end(ctx.deps, e, 'not_printed', error);
  ctx.results.set(e.id, { kind: 'not_printed', shipment, error });
}

/**
 * The jobs, their links and the entries' `queued` step: one commit per slice of entries. Each slice
 * is its own commit (the entries of later slices stay `closed` with their labels kept, so a crash
 * between slices loses nothing), and the event loop runs between slices (a batch of 500 is no one
 * long block).
 */
async function commitJobs(ctx: StepCtx, group: JournalEntry[], found: Map<number, Shipment>, jobs: EntryJobs) {
  const { deps } = ctx;
  const entryIds = [...jobs.keys()];
  const held = heldJobs(ctx, entryIds, jobs);
  const deliveryOf = new Map(group.map((e) => [e.id, e.deliveryId!]));
  // One label per parcel: a job of the same shipments still waiting in the queue is replaced by
  // these (only when these jobs hold all of its shipments: an A4 sheet of others stays).
  const covered = new Set(entryIds.map((id) => deliveryOf.get(id)!));
  const fresh = new Set<number>();
  const stored: StoredJob[] = [];
  for (const [n, slice] of slicesOf(entryIds, jobs).entries()) {
    if (n > 0 || entryIds.length > QUEUE_SLICE) await nextTurn();
    const all = [...new Set(slice.flatMap((id) => jobsOf(jobs, id)))];
    const within = (inserted: StoredJob[]) => {
      const idOf = new Map(all.map((p, i) => [p, inserted[i]!.id]));
      for (const id of slice)
        deps.repos.journal.queued(
          id,
          jobsOf(jobs, id).map((p) => idOf.get(p)!),
          deps.clock.now(),
        );
      for (const j of inserted) fresh.add(j.id);
      const replaced = new Set<number>();
      for (const id of slice)
        for (const j of deps.repos.journal.jobIdsOfShipment(ctx.session.accountId, deliveryOf.get(id)!))
          if (!fresh.has(j) && deps.queue.get(j).deliveryIds.every((x) => covered.has(x))) replaced.add(j);
      return [...replaced];
    };
    stored.push(...deps.queue.enqueueAll(all, within, (ins, rep) => linkReplaced(ctx, ins, rep), held));
  }
  const storedById = new Map(stored.map((j) => [j.id, j]));
  for (const [i, id] of entryIds.entries()) {
    if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
    const queued = deps.repos.journal.jobIdsOf(id).flatMap((j) => storedById.get(j) ?? []);
    ctx.results.set(id, { kind: 'queued', shipment: found.get(deliveryOf.get(id)!)!, jobs: queued });
  }
}

/**
 * The entries in slices of QUEUE_SLICE, each committed on its own; one slice when a job belongs to
 * several entries (a PDF sheet of several shipments belongs to each of them: one commit).
 */
function slicesOf(entryIds: number[], jobs: EntryJobs): number[][] {
  const owners = new Map<NewPrintJob, number>();
  for (const id of entryIds) for (const j of jobsOf(jobs, id)) owners.set(j, (owners.get(j) ?? 0) + 1);
  const shared = [...owners.values()].some((n) => n > 1);
  if (shared || entryIds.length <= QUEUE_SLICE) return [entryIds];
  const out: number[][] = [];
  for (let i = 0; i < entryIds.length; i += QUEUE_SLICE) out.push(entryIds.slice(i, i + QUEUE_SLICE));
  return out;
}

/**
 * In the commit that replaces them: the entries of each waiting job a new print took over (a scan
 * whose label waited, printed again from Shipments) hold the new jobs of its shipments too, so
 * the scan follows them and counts as printed once they are out, not as "print cancelled".
 */
function linkReplaced(ctx: StepCtx, inserted: StoredJob[], replaced: StoredJob[]): void {
  for (const old of replaced) {
    const takers = inserted.filter((j) => j.deliveryIds.some((d) => old.deliveryIds.includes(d))).map((j) => j.id);
    if (takers.length) ctx.deps.repos.journal.follow(old.id, takers);
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
function heldJobs(ctx: StepCtx, entryIds: number[], jobs: EntryJobs): Set<NewPrintJob> {
  const journal = ctx.deps.repos.journal;
  const held = new Set<NewPrintJob>();
  for (const id of entryIds) {
    const e = journal.get(id)!;
    if (e.want !== 'close_and_print' || !journal.closeFoundByRead(id)) continue;
    if (journal.closedHere(ctx.session.accountId, e.deliveryId!)) continue;
    for (const j of jobsOf(jobs, id)) held.add(j);
  }
  return held;
}
