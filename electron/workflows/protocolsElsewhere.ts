/**
 * Which closed shipments are on a protocol another desk (or the web application) made. The service
 * does not list protocols: it reads one at a time, by its id (spec "GET /api/v2/collection-protocols":
 * `collectionProtocolId` required, one protocol; "Limits": protocols per read 1), and says 404 for an
 * id no protocol has and 403 for another company's. So the station finds the others' protocols by
 * their ids:
 *
 * 1. the newest id: ids 1, 2, 4, 8 … are read until one is not there (404), then the gap is halved
 *    down to the last id that is (about 2·log2 of the newest id in reads);
 * 2. from there downwards, each protocol is read, until one of this company was created before the
 *    oldest close the list holds: a protocol covers only shipments closed before it was made (spec
 *    "States and transitions" rule 3), so neither it nor an older one can cover a listed parcel.
 *
 * What a careful client may assume and no more: ids are positive integers given in the order
 * protocols are made (the Location header of POST names them, spec "POST"), and a missing id means
 * none was made after it. A read's answer is kept for the life of the process (a protocol never
 * changes); the shipments a protocol of this company covers are kept in the store
 * (`markCoveredElsewhere`). At most READ_BUDGET reads a refresh: past that the list is what was
 * learnt so far, and the next refresh goes on from the top again.
 */
import { isServiceError } from '../api/index';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

/** Reads of protocols in one refresh at most (each one a request with the protocol's PDF). */
const READ_BUDGET = 80;

type Read = { kind: 'none' } | { kind: 'foreign' } | { kind: 'ours'; created: number; deliveryIds: number[] };

export type LearntProtocol = { collectionProtocolId: number; deliveryIds: number[] };

class OutOfReads extends Error {}

export function createProtocolsElsewhere(deps: Pick<WorkflowDeps, 'repos' | 'clock'>) {
  /** Answers of the service by account and id (a protocol never changes; `none` is never kept: one may be made). */
  const known = new Map<string, Map<number, Exclude<Read, { kind: 'none' }>>>();

  async function readOnce(s: WorkflowSession, id: number, budget: { left: number }): Promise<Read> {
    const cache = known.get(s.accountId) ?? new Map<number, Exclude<Read, { kind: 'none' }>>();
    known.set(s.accountId, cache);
    const had = cache.get(id);
    if (had) return had;
    const own = deps.repos.endOfDay.protocol(s.accountId, id);
    if (own) return { kind: 'ours', created: Date.parse(own.created), deliveryIds: own.deliveryIds };
    if (budget.left <= 0) throw new OutOfReads();
    budget.left--;
    let read: Read;
    try {
      const p = await s.client.getCollectionProtocol(id);
      read = { kind: 'ours', created: Date.parse(p.created), deliveryIds: p.deliveries };
      // Made on another desk: its shipments leave this desk's list.
      deps.repos.endOfDay.markCoveredElsewhere(s.accountId, p.deliveries, deps.clock.now());
    } catch (err) {
      if (isServiceError(err) && err.status === 404) return { kind: 'none' };
      if (isServiceError(err) && err.status === 403) read = { kind: 'foreign' };
      else throw err;
    }
    cache.set(id, read);
    return read;
  }

  /** The newest protocol id the service has (0: none yet). */
  async function newestId(s: WorkflowSession, budget: { left: number }): Promise<number> {
    let there = 0;
    let missing = 1;
    while ((await readOnce(s, missing, budget)).kind !== 'none') {
      there = missing;
      missing *= 2;
    }
    while (missing - there > 1) {
      const mid = Math.floor((there + missing) / 2);
      if ((await readOnce(s, mid, budget)).kind === 'none') missing = mid;
      else there = mid;
    }
    return there;
  }

  return {
    /**
     * Reads the protocols made since `oldestClose` (ms; the oldest close among the listed
     * shipments) and notes the shipments they cover. Returns the protocols of this company it went
     * through (with their shipments), newest first; throws the service's trouble as it came.
     */
    async learn(s: WorkflowSession, oldestClose: number): Promise<LearntProtocol[]> {
      const budget = { left: READ_BUDGET };
      const seen: LearntProtocol[] = [];
      try {
        for (let id = await newestId(s, budget); id > 0; id--) {
          const p = await readOnce(s, id, budget);
          if (p.kind !== 'ours') continue;
          seen.push({ collectionProtocolId: id, deliveryIds: p.deliveryIds });
          if (p.created < oldestClose) break;
        }
      } catch (err) {
        if (!(err instanceof OutOfReads)) throw err;
      }
      return seen;
    },
  };
}
