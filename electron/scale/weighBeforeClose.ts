/**
 * Weigh before closing: a scan of a prepared shipment, with a scale set up,
 * waits for a settled weight per package in turn (a countdown, a skip key), and when a weight
 * differs from the shipment's by more than the tolerance the shipment is updated at the service
 * before its close — spec "PUT /api/v3/deliveries (edit shipments)": every required field as in
 * insert plus `deliveryId`, with `If-Match` carrying the ETag of a GET without `fields` (a 412
 * means it changed meanwhile: read again and put the weights on the fresh data). Weights go as
 * JSON numbers in kg written from the exact decimal (spec "Common conventions" 5; "Delivery:
 * request fields" `packages.weight`), at most 3 decimals (grams), as the New shipment form sends.
 *
 * Every weight is committed as it is taken (journal_weights), and the update once the service took
 * it (journal_weight_updates): offline, the scan waits in the journal with its weights and sends
 * them when the service is back — never weighed twice, never updated twice.
 */
import type { Shipment } from '../../shared/contract/shipments';
import { shipmentStates } from '../../shared/contract/shipments';
import { isServiceError } from '../api/index';
import type { JournalEntry } from '../store/journalRepo';
import type { PackageWeight, WeighRepo } from '../store/weighRepo';
import { classifyTrouble, type Trouble } from '../workflows/serviceTrouble';
import { draftToDelivery, shipmentToDraft } from '../workflows/shipmentDraft';
import type { WorkflowError } from '../workflows/schemas';
import type { WorkflowDeps, WorkflowSession } from '../workflows/workflowDeps';
import type { ScaleService } from './scaleService';
import { compareDecimals, roundDecimal } from '../../shared/decimal';
import { beyondShare, differs } from './weight';

/** `held`: the worker held the parcel at the weight check (Esc): nothing was sent. */
export type BeforeClose =
  { kind: 'go' } | { kind: 'held' } | { kind: 'wait'; trouble: Trouble } | { kind: 'end'; error: WorkflowError };

/** A package whose weighed weight is off the shipment's by more than the desk's share (kg). */
export interface OffPackage {
  packageNumber: number;
  expectedKg: string;
  weighedKg: string;
}
/** The worker's answer to the weight check; `closing`: the station stops while it is open (asked again after the restart). */
export type WeightAnswer = 'accept' | 'hold' | 'closing';
/** Asks the worker about the packages off by more than the share; the scan lane owns the question. */
export type AskWeight = (s: Shipment, off: OffPackage[]) => Promise<WeightAnswer>;

/** What sending weighed weights did: the service took them, they were within the tolerance, or the shipment is no longer prepared. */
export type SentOutcome = 'updated' | 'within_tolerance' | 'not_prepared';
export type Sent = { kind: 'go'; outcome: SentOutcome } | Exclude<BeforeClose, { kind: 'go' | 'held' }>;

/** What the outcome screen shows of the weighing. */
export interface WeighedInfo {
  /** The weight each package was closed with (kg). */
  packages: string[];
  source: 'scale' | 'shipment' | 'mixed';
  /** The service took new weights before the close. */
  updated: boolean;
}

export interface WeighDeps {
  deps: Pick<WorkflowDeps, 'repos' | 'recordDeliveries' | 'clock' | 'log'>;
  scale: ScaleService;
  repo: WeighRepo;
}

const SEND_PLACES = 3;

export function createWeighBeforeClose(w: WeighDeps) {
  const { deps, scale, repo } = w;
  const now = () => deps.clock.now();

  /**
   * Takes the weights still missing (`have`), one package at a time; `record` commits each as it
   * is taken. Null: the station is closing. `scanId` names the scan on the weighing panel.
   * `again`: weighed again after the worker accepted the weight at batch mode's weight check; a
   * one-package parcel still on the scale is taken as it lies (of several, each is put on again).
   */
  async function weighPackages(
    s: Shipment,
    scanId: number,
    have: Map<number, PackageWeight>,
    record: (w: PackageWeight) => void,
    again = false,
  ): Promise<PackageWeight[] | null> {
    const settings = scale.settings();
    for (let i = 0; i < s.packages.length; i++) {
      const got = have.get(i);
      if (got) continue;
      const deadline = new Date(now().getTime() + settings.waitSeconds * 1000);
      const r = await scale.waitStable(
        settings.waitSeconds * 1000,
        {
          scanId,
          deliveryId: s.deliveryId,
          packageNumber: i + 1,
          packageCount: s.packages.length,
          expectedKg: s.packages[i]?.weight ?? null,
          deadline: deadline.toISOString(),
        },
        { retake: again && s.packages.length === 1 },
      );
      if (r.kind === 'closing') return null;
      const at = now().toISOString();
      const weight: PackageWeight =
        r.kind === 'stable'
          ? { packageIndex: i, kg: r.reading.kg, reading: `${r.reading.value} ${r.reading.unit}`, source: 'scale', at }
          : { packageIndex: i, kg: null, reading: null, source: r.kind === 'skipped' ? 'skipped' : 'timeout', at };
      record(weight);
      deps.log.info('package weighed', {
        scanId,
        deliveryId: s.deliveryId,
        package: i + 1,
        source: weight.source,
        kg: weight.kg,
      });
      have.set(i, weight);
    }
    return [...have.values()].sort((a, b) => a.packageIndex - b.packageIndex);
  }

  /** A scan's weights still missing, each committed to its journal entry as it is taken. */
  function weighMissing(e: JournalEntry, s: Shipment): Promise<PackageWeight[] | null> {
    const have = new Map(repo.weightsOf(e.id).map((x) => [x.packageIndex, x]));
    return weighPackages(s, e.scanId ?? 0, have, (w) => repo.recordWeight(e.id, w));
  }

  /** The packages whose weighed weight is off by more than the tolerance: index -> kg to send. */
  function changes(s: Shipment, weights: PackageWeight[], toleranceKg: string): Map<number, string> {
    const out = new Map<number, string>();
    for (const x of weights) {
      if (x.kg === null) continue;
      const current = s.packages[x.packageIndex]?.weight;
      const send = roundDecimal(x.kg, SEND_PLACES);
      if (current === undefined || current === null || current === '' || differs(send, current, toleranceKg))
        out.set(x.packageIndex, send);
    }
    return out;
  }

  /**
   * The weight check: the packages whose new weight is off the shipment's by more than the desk's
   * share: "2.4 kg on the scale, 0.5 kg expected — wrong contents?" is asked before anything is sent.
   * A package without a weight at the service has nothing to compare with: it is corrected silently.
   */
  function offByShare(s: Shipment, weights: PackageWeight[], toleranceKg: string, percent: number): OffPackage[] {
    const change = changes(s, weights, toleranceKg);
    const out: OffPackage[] = [];
    for (const [i, kg] of change) {
      const expected = s.packages[i]?.weight;
      if (!expected || compareDecimals(expected, '0') <= 0) continue;
      if (beyondShare(kg, expected, percent)) out.push({ packageNumber: i + 1, expectedKg: expected, weighedKg: kg });
    }
    return out;
  }

  /** The worker accepted this entry's weights at the check (committed before they are sent: a restart does not ask again). */
  const accepted = (entryId: number) => deps.repos.journal.steps(entryId).some((x) => x.step === 'weight_accepted');

  /** GET without `fields` (the ETag If-Match compares with), weights put on the fresh data, PUT. */
  async function update(
    session: WorkflowSession,
    deliveryId: number,
    weights: PackageWeight[],
    toleranceKg: string,
  ): Promise<SentOutcome> {
    for (let attempt = 0; ; attempt++) {
      const found = await session.client.searchDeliveries({ deliveryIds: [deliveryId] });
      if (found.status !== 'ok' || found.deliveries.length === 0)
        throw Object.assign(new Error(`Shipment ${deliveryId} was not found at the service.`), { code: 'not_found' });
      deps.recordDeliveries(session.accountId, found.deliveries);
      const fresh = deps.repos.shipments.get(session.accountId, deliveryId);
      if (!fresh) throw Object.assign(new Error(`Shipment ${deliveryId} could not be read.`), { code: 'not_stored' });
      // Closed or cancelled meanwhile: the close path says what happened; nothing to edit.
      if (fresh.state !== shipmentStates.prepared) return 'not_prepared';
      const change = changes(fresh, weights, toleranceKg);
      if (!change.size) return 'within_tolerance';
      const draft = shipmentToDraft(fresh);
      draft.packages = draft.packages.map((p, i) => (change.has(i) ? { ...p, weight: change.get(i)! } : p));
      try {
        await session.client.editDeliveries(
          [{ ...draftToDelivery(draft), deliveryId }],
          found.etag ? { ifMatch: found.etag } : {},
        );
      } catch (err) {
        // Spec "PUT": 412 = changed since that ETag, nothing edited. The parcel's weight is still
        // what the scale said: read again and put it on the fresh data (twice at most).
        if (isServiceError(err) && err.kind === 'http' && err.status === 412 && attempt < 2) continue;
        throw err;
      }
      // PUT answers the data it took; a fresh read stores it as the service holds it.
      deps.recordDeliveries(session.accountId, await session.client.getDeliveriesByIds([deliveryId]));
      return 'updated';
    }
  }

  /**
   * The one way weighed weights reach the service, for a single scan and for a batch alike: within
   * the tolerance of the shipment as cached, nothing is sent; otherwise `update` (GET, PUT If-Match).
   */
  async function sendWeights(session: WorkflowSession, s: Shipment, weights: PackageWeight[]): Promise<Sent> {
    const { toleranceKg } = scale.settings();
    if (!changes(s, weights, toleranceKg).size) return { kind: 'go', outcome: 'within_tolerance' };
    try {
      return { kind: 'go', outcome: await update(session, s.deliveryId, weights, toleranceKg) };
    } catch (err) {
      const t = classifyTrouble(err);
      if (t.kind !== 'answered') return { kind: 'wait', trouble: t };
      const messages = t.messages.length ? ` (${t.messages.join(' | ')})` : '';
      return {
        kind: 'end',
        error: {
          code: 'rejected',
          message: `The service refused the weighed weight for shipment ${s.deliveryId}: ${t.error.message}${messages}. The shipment was not closed.`,
        },
      };
    }
  }

  /** The journal's record of what the weights did (the outcome screen and a restart read it). */
  function recordSent(entryId: number, outcome: SentOutcome): void {
    if (outcome !== 'not_prepared') repo.recordUpdate(entryId, outcome, now());
    deps.repos.journal.note(entryId, 'weighed', now(), outcome === 'updated' ? 'weight_updated' : outcome);
  }

  return {
    /**
     * Before the close of a resolved scan: weigh (unless weighed already), ask the worker when a
     * weight is off by more than the share, update if off. The question leaves the entry `resolved`
     * with its weights committed: killed while it is open, the scan is asked again after the restart
     * (nothing was sent, nothing closed); an accepted answer is committed before the weight is sent.
     */
    async beforeClose(e: JournalEntry, session: WorkflowSession, ask: AskWeight): Promise<BeforeClose> {
      if (!scale.enabled() || e.deliveryId === null) return { kind: 'go' };
      if (repo.updateOf(e.id)) return { kind: 'go' };
      const s = deps.repos.shipments.get(session.accountId, e.deliveryId);
      if (!s || s.state !== shipmentStates.prepared || s.packages.length === 0) return { kind: 'go' };
      const weights = await weighMissing(e, s);
      if (!weights) {
        // Kept in the journal at its step with the weights taken so far; it resumes after the restart.
        return {
          kind: 'wait',
          trouble: {
            kind: 'unreachable',
            error: {
              code: 'unavailable',
              message: 'The station closed while the scan waited for the scale; it is weighed after the restart.',
            },
          },
        };
      }
      const { toleranceKg, askAbovePercent } = scale.settings();
      const off = offByShare(s, weights, toleranceKg, askAbovePercent);
      if (off.length && !accepted(e.id)) {
        deps.repos.journal.note(e.id, 'weight_asked', now());
        const answer = await ask(s, off);
        if (answer === 'closing') {
          return {
            kind: 'wait',
            trouble: {
              kind: 'unreachable',
              error: {
                code: 'unavailable',
                message: 'The station closed while the weight check was open; it is asked again after the restart.',
              },
            },
          };
        }
        if (answer === 'hold') return { kind: 'held' };
        deps.repos.journal.note(e.id, 'weight_accepted', now());
      }
      const r = await sendWeights(session, s, weights);
      if (r.kind !== 'go') return r;
      recordSent(e.id, r.outcome);
      return { kind: 'go' };
    },

    /**
     * Batch mode: the parcel is weighed as it is collected (it lies on the scale when its code is
     * scanned); its weights travel with the batch item until the batch closes, when they are sent
     * as a single scan's are and recorded on the shipment's journal entry.
     */
    batch: {
      enabled: () => scale.enabled(),
      /** One settled weight per package of a prepared shipment, in turn. Null: the station is closing. */
      weigh: (s: Shipment, again = false): Promise<PackageWeight[] | null> =>
        weighPackages(s, 0, new Map(), () => undefined, again),
      /** The packages off the shipment's weight by more than the desk's share: the weight check asks before they are collected. */
      offByShare(s: Shipment, weights: PackageWeight[]): OffPackage[] {
        const { toleranceKg, askAbovePercent } = scale.settings();
        return offByShare(s, weights, toleranceKg, askAbovePercent);
      },
      send: sendWeights,
      /** The weights and what they did, on the shipment's journal entry (in the commit that creates it). */
      record(entryId: number, weights: PackageWeight[], outcome: SentOutcome): void {
        for (const w of weights) repo.recordWeight(entryId, w);
        recordSent(entryId, outcome);
      },
    },

    /** The weighing of an entry's shipment as the outcome screen shows it; null when it was not weighed. */
    weighedOf(entryId: number, s: Shipment): WeighedInfo | null {
      const weights = repo.weightsOf(entryId);
      if (!weights.length) return null;
      const sources = new Set(weights.map((x) => (x.source === 'scale' ? 'scale' : 'shipment')));
      return {
        packages: s.packages.map((p) => p.weight ?? ''),
        source: sources.size > 1 ? 'mixed' : sources.has('scale') ? 'scale' : 'shipment',
        updated: repo.updateOf(entryId)?.outcome === 'updated',
      };
    },
  };
}
