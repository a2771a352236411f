/**
 * End of day: for each carrier + collection place with closed, unsent shipments
 * that have no protocol yet (spec "States and transitions", rule 3), create the collection protocol
 * (spec "POST /api/v2/collection-protocols": one per request), keep its PDF, and print it on the
 * protocol (office) printer route. Also the history of protocols with reprint, and the pick-up
 * orders the closes returned (spec "PATCH": `data.collectionOrders`).
 *
 * The list comes from the cache, refreshed from the service first when it can be reached. The
 * station knows which shipments its own protocols cover, and reads the protocols other desks made
 * (./protocolsElsewhere.ts: the service lists none, it reads them one by one) when the screen
 * opens and after a Create, so a parcel on any protocol leaves every desk's list. A refused Create
 * says which desk's protocol has them, in the worker's words.
 */
import { shipmentStates } from '../../shared/contract/shipments';
import { isServiceError } from '../api/index';
import { protocolPrintJob } from '../printing/routing';
import { StationError } from '../base/stationError';
import type { StoredProtocol } from '../store/endOfDayRepo';
import type { FromAddressGroup, PickupOrder, ProtocolCandidate, ProtocolRecord, WorkflowError } from './schemas';
import { createProtocolsElsewhere, type LearntProtocol } from './protocolsElsewhere';
import { classifyTrouble } from './serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

const PAGE = 500;

const toRecord = (p: StoredProtocol): ProtocolRecord => ({
  collectionProtocolId: p.collectionProtocolId,
  carrier: p.agent,
  collectionPlace: p.collectionPlace,
  created: p.created,
  deliveryIds: p.deliveryIds,
  lastJobId: p.lastJobId,
});

/** A protocol's PDF: the station's stored copy, or the service's (spec "GET /api/v2/collection-protocols") kept for the next time. */
export async function protocolPdf(
  deps: WorkflowDeps,
  s: WorkflowSession,
  collectionProtocolId: number,
): Promise<Buffer> {
  const stored = deps.repos.endOfDay.protocolPdf(s.accountId, collectionProtocolId);
  if (stored) return stored;
  try {
    const p = await s.client.getCollectionProtocol(collectionProtocolId);
    deps.repos.endOfDay.saveProtocol(s.accountId, { ...p, pdf: p.protocol }, deps.clock.now());
    return p.protocol;
  } catch (err) {
    const t = classifyTrouble(err);
    throw new StationError(t.kind === 'answered' ? 'protocol_not_found' : 'service_unreachable', t.error.message);
  }
}

/** Whether the service still lists the collection place as active (spec "GET /api/v2/collection-places"); false when it cannot say. */
async function placeStillActive(s: WorkflowSession, identificator: string): Promise<boolean> {
  try {
    return (await s.client.getCollectionPlaces()).some((p) => p.identificator === identificator);
  } catch {
    return false;
  }
}

export function createEndOfDay(deps: WorkflowDeps) {
  function session(): WorkflowSession {
    const s = deps.session();
    if (!s) throw new StationError('login_required', 'The station is not logged in to the service. Log in again.');
    return s;
  }

  /** Reads the closed-unsent shipments from the service into the cache: new ones, and those cached as unsent that moved on. */
  async function refresh(s: WorkflowSession): Promise<void> {
    const cachedUnsent = cachedIdsInState(s.accountId, shipmentStates.closedUnsent);
    for await (const page of s.client.pageDeliveries({
      filters: { deliveryState: String(shipmentStates.closedUnsent) },
    })) {
      deps.recordDeliveries(s.accountId, page);
    }
    if (cachedUnsent.length) deps.recordDeliveries(s.accountId, await s.client.getDeliveriesByIds(cachedUnsent));
  }

  function cachedIdsInState(accountId: string, state: number): number[] {
    const ids: number[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = deps.repos.shipments.query(accountId, { states: [state], offset, limit: PAGE });
      ids.push(...page.items.map((i) => i.deliveryId));
      if (page.items.length < PAGE) return ids;
    }
  }

  /**
   * The closed, unsent shipments of the cache: those sent from a collection place by carrier +
   * place without a protocol yet, and those sent from an address by carrier. A protocol names a
   * carrier and a collection place (spec "POST /api/v2/collection-protocols": `agent` and
   * `collectionPlace`, one protocol per request) and covers the shipments of one carrier at one
   * collection place (spec "States and transitions", rule 3): a shipment whose sender is an
   * address (spec "Party type rules" 1, 4: a direct or back shipment) is on none, and is listed
   * apart so the worker sees it was closed and still waits for its carrier.
   */
  function closedUnsentFromCache(accountId: string): {
    pairs: ProtocolCandidate[];
    fromAddress: FromAddressGroup[];
    /** The oldest close among the pairs' shipments (ms), NaN when none: no protocol made before it covers any of them. */
    oldestClose: number;
  } {
    let oldestClose = NaN;
    const pairs = new Map<string, ProtocolCandidate>();
    const fromAddress = new Map<string, FromAddressGroup>();
    for (let offset = 0; ; offset += PAGE) {
      const page = deps.repos.shipments.query(accountId, {
        states: [shipmentStates.closedUnsent],
        offset,
        limit: PAGE,
      });
      const covered = deps.repos.endOfDay.coveredByProtocol(
        accountId,
        page.items.map((i) => i.deliveryId),
      );
      for (const it of page.items) {
        if (!it.agent) continue;
        if (!it.collectionPlace) {
          const g = fromAddress.get(it.agent) ?? { carrier: it.agent, deliveryIds: [] };
          g.deliveryIds.push(it.deliveryId);
          fromAddress.set(it.agent, g);
          continue;
        }
        if (covered.has(it.deliveryId)) continue;
        const closedAt = it.closed ? Date.parse(it.closed) : NaN;
        // A close of unknown time: any protocol may cover it.
        const at = Number.isNaN(closedAt) ? 0 : closedAt;
        oldestClose = Number.isNaN(oldestClose) ? at : Math.min(oldestClose, at);
        const key = `${it.agent}\u0000${it.collectionPlace}`;
        const c = pairs.get(key) ?? {
          carrier: it.agent,
          collectionPlace: it.collectionPlace,
          collectionPlaceName: deps.repos.places.get(accountId, it.collectionPlace)?.name ?? null,
          deliveryIds: [],
        };
        c.deliveryIds.push(it.deliveryId);
        pairs.set(key, c);
      }
      if (page.items.length < PAGE) break;
    }
    return {
      pairs: [...pairs.values()]
        .map((c) => ({ ...c, deliveryIds: c.deliveryIds.sort((a, b) => a - b) }))
        .sort((a, b) => a.carrier.localeCompare(b.carrier) || a.collectionPlace.localeCompare(b.collectionPlace)),
      fromAddress: [...fromAddress.values()]
        .map((g) => ({ ...g, deliveryIds: g.deliveryIds.sort((a, b) => a - b) }))
        .sort((a, b) => a.carrier.localeCompare(b.carrier)),
      oldestClose,
    };
  }

  const elsewhere = createProtocolsElsewhere(deps);

  /** The protocols other desks made that cover what the list holds now (none read when it holds nothing). */
  async function learnElsewhere(s: WorkflowSession): Promise<LearntProtocol[]> {
    const { oldestClose } = closedUnsentFromCache(s.accountId);
    return Number.isNaN(oldestClose) ? [] : elsewhere.learn(s, oldestClose);
  }

  const pairOf = (accountId: string, req: { carrier: string; collectionPlace: string }): number[] =>
    closedUnsentFromCache(accountId).pairs.find(
      (c) => c.carrier === req.carrier && c.collectionPlace === req.collectionPlace,
    )?.deliveryIds ?? [];

  /**
   * The refusal of a Create for shipments the list still held, in the worker's words: the
   * protocols read now name the desk's protocol that has them; the shipments leave the list
   * either way (the service said none of them is waiting), so the list and the sentence agree.
   */
  async function madeElsewhere(s: WorkflowSession, listed: number[]): Promise<StationError> {
    let found: LearntProtocol[] = [];
    try {
      found = await learnElsewhere(s);
    } catch (err) {
      deps.log.warn('end of day: the protocols made elsewhere could not be read', {
        code: classifyTrouble(err).error.code,
      });
    }
    deps.repos.endOfDay.markCoveredElsewhere(s.accountId, listed, deps.clock.now());
    const protocolIds = found
      .filter((p) => p.deliveryIds.some((d) => listed.includes(d)))
      .map((p) => p.collectionProtocolId)
      .sort((a, b) => a - b);
    return new StationError(
      'protocol_made_elsewhere',
      protocolIds.length
        ? `These parcels are on protocol ${protocolIds.join(', ')}, made at another desk; they are no longer listed here.`
        : 'These parcels are already on a protocol made at another desk or in the web application; they are no longer listed here.',
      { protocolIds },
    );
  }

  function printProtocol(accountId: string, id: number, pdf: Buffer): number | null {
    const job = protocolPrintJob(deps.routes(), pdf, id);
    if (!job) return null;
    const stored = deps.queue.enqueue(job);
    deps.repos.endOfDay.setProtocolJob(accountId, id, stored.id);
    return stored.id;
  }

  return {
    /**
     * The pairs that need a protocol, and the shipments sent from an address that need none. With the service reachable the cache is refreshed first;
     * otherwise the cache answers and `refreshError` says why it may be out of date.
     */
    async candidates(opts: { refresh?: boolean } = {}): Promise<{
      candidates: ProtocolCandidate[];
      fromAddress: FromAddressGroup[];
      refreshError: WorkflowError | null;
    }> {
      const s = session();
      let refreshError: WorkflowError | null = null;
      if (opts.refresh !== false) {
        try {
          await refresh(s);
          await learnElsewhere(s);
        } catch (err) {
          refreshError = classifyTrouble(err).error;
          deps.log.warn('end of day: refresh from the service failed; showing the cache', { code: refreshError.code });
        }
      }
      const { pairs, fromAddress } = closedUnsentFromCache(s.accountId);
      return { candidates: pairs, fromAddress, refreshError };
    },

    /** Creates the protocol of one carrier + collection place, stores its PDF and prints it. */
    async createProtocol(req: {
      carrier: string;
      collectionPlace: string;
    }): Promise<{ protocol: ProtocolRecord; jobId: number | null }> {
      const s = session();
      let p;
      try {
        p = await s.client.createCollectionProtocol({ agent: req.carrier, collectionPlace: req.collectionPlace });
      } catch (err) {
        const t = classifyTrouble(err);
        const details = isServiceError(err) ? err.errors.map((e) => e.message) : [];
        if (
          t.kind === 'answered' &&
          t.status === 422 &&
          details.length > 0 &&
          (await placeStillActive(s, req.collectionPlace))
        ) {
          // None of the pair's shipments qualifies (spec "POST /api/v2/collection-protocols"): another
          // desk's protocol has them. (A place deactivated meanwhile is refused with errors[] too;
          // its shipments stay listed.)
          const listed = pairOf(s.accountId, req);
          if (listed.length) throw await madeElsewhere(s, listed);
        }
        throw new StationError(
          t.kind === 'answered' ? 'protocol_refused' : t.kind === 'login' ? 'login_required' : 'service_unreachable',
          [t.error.message, ...details].join(' | '),
          { messages: details },
        );
      }
      deps.repos.endOfDay.saveProtocol(s.accountId, { ...p, pdf: p.protocol }, deps.clock.now());
      const jobId = printProtocol(s.accountId, p.collectionProtocolId, p.protocol);
      return { protocol: toRecord(deps.repos.endOfDay.protocol(s.accountId, p.collectionProtocolId)!), jobId };
    },

    /** Protocols created on this station, newest first. */
    protocols(limit = 200): ProtocolRecord[] {
      return deps.repos.endOfDay.protocols(session().accountId, limit).map(toRecord);
    },

    /** Prints a protocol again: the stored PDF, or the service's copy (spec "GET /api/v2/collection-protocols"). */
    async reprintProtocol(collectionProtocolId: number): Promise<{ jobId: number | null }> {
      const s = session();
      const pdf = await protocolPdf(deps, s, collectionProtocolId);
      const jobId = printProtocol(s.accountId, collectionProtocolId, pdf);
      if (jobId === null)
        throw new StationError(
          'no_protocol_printer',
          'No printer is set for collection protocols. Choose one under Settings > Printing > Routing.',
        );
      return { jobId };
    },

    /** Pick-up orders returned by closes, latest day first (from `fromDay`, YYYY-MM-DD, when given). */
    pickupOrders(fromDay?: string): PickupOrder[] {
      return deps.repos.endOfDay.pickupOrders(session().accountId, fromDay).map((o) => ({
        carrier: o.agent,
        collectionPlace: o.collectionPlace,
        scheduled: o.scheduled,
        receivedAt: o.receivedAt,
        deliveryIds: o.deliveryIds,
      }));
    },
  };
}

export type EndOfDay = ReturnType<typeof createEndOfDay>;
