/**
 * The desk's figures for a range of local days, from the journal (who began each parcel, when each
 * step was reached), the print jobs (when the printer confirmed a label) and desk_actions (reprints
 * with their reasons). A parcel belongs to the operator who began it (migration 16), even when the
 * background finished it after a sign-out.
 *
 * The steps, named by what the journal records:
 * - scan_to_closed: the entry began (a scan's moment) → the service closed the shipment (`closed`);
 * - closed_to_queued: closed → its labels fetched (or taken from the store) and committed to the print
 *   queue in one commit (the journal's `queued`): the label fetch is most of it;
 * - queued_to_printed: queued → the printer confirmed the last of its label jobs (the job's `done` time).
 *
 * A parcel is a shipment (deliveryId), counted once per local day and scope: a scan of a parcel
 * closed before (the already-closed prompt, for a reprint or a double scan) is a rescan, not
 * another parcel, and a parcel scanned again after a refusal or an error is still one parcel.
 */
import { reprintReasons, type ReprintReason } from '../../shared/contract/operators';
import {
  STATISTICS_MIN_RATE_MINUTES,
  statisticsSteps,
  type HourFigures,
  type OperatorFigures,
  type Statistics,
  type StatisticsRange,
  type StatisticsScope,
  type StatisticsStep,
  type StepFigures,
} from '../../shared/contract/statistics';
import { replacedByReprint } from '../../shared/contract/printing';
import type { StatEntry, StatJob, StatisticsRepo } from '../store/statisticsRepo';
import { nearestRank } from './percentile';

/** Ends a close refused by the service or the carrier (closeAndPrint: 404 or the carrier's refusal). */
const REFUSED = new Set(['rejected']);
/** Ends the station could not carry through (no labels came, an unexpected failure). */
const FAILED = new Set(['error', 'not_printed']);

/**
 * The shortest stretch of work a rate is given for. Parcels an hour over a shorter one says
 * nothing of a desk's pace (one parcel closed 11 ms after its scan made "327,272.7 an hour"), so
 * from the first scan to the last close must be at least this long, or there is no rate (the
 * screen shows "—" and says why). Fifteen minutes: a few parcels at a desk's usual pace.
 */
export const MIN_RATE_WINDOW_MS = STATISTICS_MIN_RATE_MINUTES * 60_000;

/** Local midnight of a YYYY-MM-DD day (the station's time zone: the page and the core share a computer). */
function localMidnight(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays);
}

/** The local day (YYYY-MM-DD) of an ISO instant, in the station's time zone. */
function localDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** From a to b in ms; never below 0 (a clock set back between two steps is no negative time). */
const ms = (a: string, b: string) => Math.max(0, Date.parse(b) - Date.parse(a));

interface Parcel {
  entry: StatEntry;
  printedAt: string | null;
}

function emptyFigures(scope: StatisticsScope, name: string | null): OperatorFigures {
  return {
    scope,
    name,
    parcels: 0,
    closed: 0,
    printed: 0,
    labels: 0,
    reprints: Object.fromEntries(reprintReasons.map((r) => [r, 0])) as Record<ReprintReason, number>,
    rescans: 0,
    held: 0,
    refusals: 0,
    errors: 0,
    perHour: null,
  };
}

const scopeOf = (operatorId: number | null): StatisticsScope => operatorId ?? 'nobody';

export function deskStatistics(repo: StatisticsRepo, range: StatisticsRange): Statistics {
  const from = localMidnight(range.from);
  const to = localMidnight(range.to, 1);
  const entries = repo.entries(from, to);
  const jobsOf = new Map<number, StatJob[]>();
  for (const j of repo.jobs(from, to)) {
    const list = jobsOf.get(j.entryId);
    if (list) list.push(j);
    else jobsOf.set(j.entryId, [j]);
  }
  const names = repo.operatorNames();

  const byScope = new Map<StatisticsScope, OperatorFigures>();
  const total = emptyFigures('everyone', null);
  const figuresOf = (operatorId: number | null) => {
    const scope = scopeOf(operatorId);
    let f = byScope.get(scope);
    if (!f) byScope.set(scope, (f = emptyFigures(scope, operatorId === null ? null : (names.get(operatorId) ?? null))));
    return f;
  };
  const both = (operatorId: number | null, fn: (f: OperatorFigures) => void) => {
    fn(figuresOf(operatorId));
    fn(total);
  };

  // Labels: the package labels of each confirmed job, once per scope (a sheet shared by entries of one person counts once).
  const labelJobs = new Map<StatisticsScope, Set<number>>();
  const parcels: Parcel[] = [];
  const seenParcels = new Map<StatisticsScope, Map<string, { closed: boolean; printed: boolean }>>();
  for (const e of entries) {
    const jobs = jobsOf.get(e.id) ?? [];
    for (const j of jobs) {
      if (j.state !== 'done') continue;
      for (const scope of [scopeOf(e.operatorId), 'everyone' as const]) {
        const seen = labelJobs.get(scope) ?? new Set<number>();
        labelJobs.set(scope, seen);
        if (seen.has(j.jobId)) continue;
        seen.add(j.jobId);
        // A job without package barcodes (none came from the service) still printed a label.
        (scope === 'everyone' ? total : figuresOf(e.operatorId)).labels += Math.max(1, j.packageLabels) * j.copies;
      }
    }
    if (e.want !== 'close_and_print') continue;
    if (e.outcome === 'already_closed') {
      // A scan of a parcel closed before: the worker reprints it or skips it, no new parcel.
      both(e.operatorId, (f) => f.rescans++);
      continue;
    }
    // A job a new print of the same labels took over is not the parcel's label any more.
    const own = jobs.filter((j) => !replacedByReprint(j));
    const printedAt =
      e.closedAt && own.length && own.every((j) => j.state === 'done' && j.finishedAt)
        ? own
            .map((j) => j.finishedAt!)
            .sort()
            .at(-1)!
        : null;
    parcels.push({ entry: e, printedAt });
    // Once per local day: a parcel never found has no deliveryId and is its own entry.
    const parcel = `${localDay(e.createdAt)} ${e.deliveryId ?? `entry ${e.id}`}`;
    for (const scope of [scopeOf(e.operatorId), 'everyone' as const]) {
      const f = scope === 'everyone' ? total : figuresOf(e.operatorId);
      const seen = seenParcels.get(scope) ?? new Map<string, { closed: boolean; printed: boolean }>();
      seenParcels.set(scope, seen);
      const was = seen.get(parcel);
      if (!was) f.parcels++;
      if (e.closedAt && !was?.closed) f.closed++;
      if (printedAt && !was?.printed) f.printed++;
      seen.set(parcel, { closed: !!(e.closedAt || was?.closed), printed: !!(printedAt || was?.printed) });
      if (e.outcome && REFUSED.has(e.outcome)) f.refusals++;
      if (e.outcome && FAILED.has(e.outcome)) f.errors++;
    }
  }
  for (const r of repo.reprints(from, to)) {
    const reason = (reprintReasons as readonly string[]).includes(r.reasonCode ?? '')
      ? (r.reasonCode as ReprintReason)
      : 'other';
    both(r.operatorId, (f) => f.reprints[reason]++);
  }
  for (const h of repo.holds(from, to)) both(h.operatorId, (f) => f.held++);

  // Rate: closed parcels over the time from the scope's first parcel begun to its last close
  // (ISO times in UTC compare as strings), given only when that time is at least
  // MIN_RATE_WINDOW_MS. One pass: a month of a busy desk is tens of thousands.
  const closedParcels = parcels.filter((p) => p.entry.closedAt);
  const span = new Map<StatisticsScope, { first: string; lastClose: string | null }>();
  for (const p of parcels) {
    for (const scope of [scopeOf(p.entry.operatorId), 'everyone' as const]) {
      const s = span.get(scope) ?? { first: p.entry.createdAt, lastClose: null };
      if (p.entry.createdAt < s.first) s.first = p.entry.createdAt;
      if (p.entry.closedAt && (s.lastClose === null || p.entry.closedAt > s.lastClose)) s.lastClose = p.entry.closedAt;
      span.set(scope, s);
    }
  }
  for (const f of [...byScope.values(), total]) {
    const s = span.get(f.scope);
    if (!s?.lastClose) continue;
    const window = ms(s.first, s.lastClose);
    if (window >= MIN_RATE_WINDOW_MS) f.perHour = f.closed / (window / 3_600_000);
  }

  const operators = [...byScope.values()].sort((a, b) =>
    a.scope === 'nobody'
      ? 1
      : b.scope === 'nobody'
        ? -1
        : (a.name ?? '').localeCompare(b.name ?? '') || Number(a.scope) - Number(b.scope),
  );

  const hours: HourFigures[] = [];
  for (let hour = 0; hour < 24; hour++) {
    const counts = new Map<StatisticsScope, number>();
    for (const p of closedParcels) {
      if (new Date(p.entry.closedAt!).getHours() !== hour) continue;
      const scope = scopeOf(p.entry.operatorId);
      counts.set(scope, (counts.get(scope) ?? 0) + 1);
    }
    hours.push({
      hour,
      closed: operators.map((o) => ({ scope: o.scope, closed: counts.get(o.scope) ?? 0 })),
    });
  }

  return {
    from: range.from,
    to: range.to,
    operators,
    total,
    hours,
    steps: stepTimes(
      parcels,
      operators.map((o) => o.scope),
    ),
  };
}

/** Each step's duration of a parcel, when the parcel reached both ends of it. */
function durations(p: Parcel): Partial<Record<StatisticsStep, number>> {
  const e = p.entry;
  return {
    ...(e.closedAt ? { scan_to_closed: ms(e.createdAt, e.closedAt) } : {}),
    ...(e.closedAt && e.queuedAt ? { closed_to_queued: ms(e.closedAt, e.queuedAt) } : {}),
    ...(e.queuedAt && p.printedAt ? { queued_to_printed: ms(e.queuedAt, p.printedAt) } : {}),
  };
}

/** p50 and p95 of each step, per scope (each operator, then everyone) and carrier (each, then all). */
function stepTimes(parcels: Parcel[], scopes: StatisticsScope[]): StepFigures[] {
  const out: StepFigures[] = [];
  const carriers = [...new Set(parcels.map((p) => p.entry.carrier ?? ''))].sort();
  for (const scope of [...scopes, 'everyone' as const]) {
    const mine = parcels.filter((p) => scope === 'everyone' || scopeOf(p.entry.operatorId) === scope);
    for (const carrier of [...carriers, null]) {
      const these = carrier === null ? mine : mine.filter((p) => (p.entry.carrier ?? '') === carrier);
      for (const step of statisticsSteps) {
        const values = these.flatMap((p) => durations(p)[step] ?? []);
        if (!values.length) continue;
        out.push({
          scope,
          carrier,
          step,
          count: values.length,
          p50Ms: nearestRank(values, 50),
          p95Ms: nearestRank(values, 95),
        });
      }
    }
  }
  return out;
}
