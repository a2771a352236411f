/**
 * The scan runner's transitions (electron/workflows/scan/runScan.ts), one test each: from a
 * journal entry, what the worker is told, whether the scan holds the line, and how its entry
 * moves (ended with which outcome, waiting, resolved, handed to the close-and-print machine).
 *
 * The journal is the real one in SQLite. The close-and-print machine, the lookup, the reprint
 * question, the label report and the desk's weight step are stand-ins that record what they were
 * asked and answer what each transition starts from: each is tested with real parts on its own
 * (test/unit/workflows/closeAndPrint.test.ts, test/integration/workflows/scanToClose.test.ts,
 * test/integration/scale/weightCheck.test.ts); here only the runner's choice between them is.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BeforeClose } from '../../../electron/scale/weighBeforeClose';
import { openDatabase } from '../../../electron/store/database';
import { createJournalRepo, type JournalEntry, type JournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createDeskActionsRepo } from '../../../electron/store/deskActionsRepo';
import { createShelfRepo, type ShelfRepo } from '../../../electron/store/shelfRepo';
import type { EntryResult } from '../../../electron/workflows/closeAndPrint';
import { createScanRunner, type Run, type ScanRunnerParts } from '../../../electron/workflows/scan/runScan';
import type { ScanOutcome } from '../../../electron/workflows/schemas';
import type { WorkflowDeps, WorkflowSession } from '../../../electron/workflows/workflowDeps';
import type { LookupResult, Shipment } from '../../../shared/contract/shipments';
import { shipmentStates } from '../../../shared/contract/shipments';

const t0 = new Date('2026-11-24T08:00:00Z');
const ACCOUNT = 'firma-1';
const CODE = 'OBJ-1001';

/** A shipment as the cache keeps it (spec "Delivery": recipient, packages; the state a test needs). */
function shipment(state: number, deliveryId = 501): Shipment {
  const party = {
    type: 'address',
    collectionPlace: null,
    pickUpPlace: null,
    name: null,
    firstname: 'Jiří',
    surname: 'Dvořák',
    contactPerson: null,
    email: 'jiri@example.cz',
    phone: null,
    address: { street: 'Náměstí Míru 5', streetNumber: null, city: 'Brno', postalCode: '60200', state: 'CZ' },
  };
  return {
    accountId: ACCOUNT,
    deliveryId,
    externalId: CODE,
    deliveryNumber: null,
    state,
    stateName: null,
    agent: 'PPR',
    deliveryType: null,
    collectionPlace: null,
    recipient: party,
    sender: party,
    value: '100',
    valueCurrency: 'CZK',
    cod: null,
    codCurrency: null,
    variableSymbol: null,
    ticketNote: null,
    packages: [{ barcode: null, weight: '1,5', length: null, width: null, height: null }],
    extraServices: [],
    source: null,
    sourceName: null,
    created: null,
    closed: null,
    etag: null,
    version: 1,
    syncedAt: t0.toISOString(),
  };
}

const prepared = shipment(shipmentStates.prepared);
const closed = shipment(shipmentStates.closedUnsent);

/** What the stand-ins were asked. */
interface Calls {
  ended: { entryId: number; outcome: string; code: string | null; deliveryId?: number }[];
  waited: { entryId: number; trouble: string }[];
  ran: { entryIds: number[]; notSent: number[] }[];
  asked: { scanId: number; deliveryId: number }[];
  reported: number[];
  labelQueued: number[];
  logged: string[];
}

interface Setup {
  session: WorkflowSession | null;
  lookup: LookupResult;
  result: EntryResult;
  desk: BeforeClose | null;
}

let journal: JournalRepo;
let shelf: ShelfRepo;
let calls: Calls;
let setup: Setup;
let closeNotSent: Set<number>;

const session: WorkflowSession = { accountId: ACCOUNT, client: {} as WorkflowSession['client'] };
/** What the reprint question's stand-in answers: the already-closed outcome the worker would see. */
const askedOutcome = (scanId: number): ScanOutcome => ({
  scanId,
  code: CODE,
  kind: 'already_closed',
  shipment: {
    deliveryId: 501,
    carrier: 'PPR',
    recipientName: 'Jiří Dvořák',
    packageCount: 1,
    deliveryNumber: null,
    barcodes: [],
  },
  closedElsewhere: false,
  labelsAvailable: true,
});

beforeEach(() => {
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'run-scan-')), 'station.db'));
  journal = createJournalRepo(db, createScanLogRepo(db));
  shelf = createShelfRepo(
    db,
    createDeskActionsRepo(db, () => ({ desk: 'Balení 1', operator: null })),
  );
  calls = { ended: [], waited: [], ran: [], asked: [], reported: [], labelQueued: [], logged: [] };
  setup = {
    session,
    lookup: { kind: 'found', code: CODE, shipment: prepared, matchedBy: 'externalId', source: 'cache' },
    result: { kind: 'queued', shipment: closed, jobs: [] },
    desk: null,
  };
  closeNotSent = new Set();
});

function runner() {
  const deps = {
    session: () => setup.session,
    lookup: async () => setup.lookup,
    repos: { journal, shelf, shipments: { get: () => prepared } },
    clock: { now: () => t0 },
    log: { info() {}, warn() {}, error: (m: string) => calls.logged.push(m) },
  } as unknown as WorkflowDeps;
  const engine = {
    end: (e: JournalEntry, outcome: string, error: { code: string } | null, deliveryId?: number) =>
      calls.ended.push({ entryId: e.id, outcome, code: error?.code ?? null, ...(deliveryId ? { deliveryId } : {}) }),
    wait: (e: JournalEntry, t: { error: { code: string } }) =>
      calls.waited.push({ entryId: e.id, trouble: t.error.code }),
    run: async (_s: WorkflowSession, entries: JournalEntry[], notSent?: Set<number>) => {
      calls.ran.push({ entryIds: entries.map((e) => e.id), notSent: [...(notSent ?? [])] });
      return new Map(entries.map((e) => [e.id, setup.result]));
    },
  };
  const parts = {
    engine,
    report: async (scanId: number) => {
      calls.reported.push(scanId);
      return { scanId, code: CODE, kind: 'printed', shipment: { deliveryId: 501 }, jobIds: [7], reprint: false };
    },
    prompt: {
      ask: async (scanId: number, _code: string, _s: WorkflowSession, s: Shipment) => {
        calls.asked.push({ scanId, deliveryId: s.deliveryId });
        return askedOutcome(scanId);
      },
    },
    askWeight: () => async () => ({ kind: 'send' }),
    closeNotSent,
    desk: setup.desk
      ? {
          beforeClose: async () => setup.desk!,
          weighedOf: () => null,
          labelQueued: (entryId: number) => calls.labelQueued.push(entryId),
        }
      : undefined,
  } as unknown as ScanRunnerParts;
  return createScanRunner(deps, parts);
}

function scan(accountId = ACCOUNT): JournalEntry {
  return journal.receiveScan({ accountId, code: CODE, rawCode: null, at: t0 }).entry;
}

const outcome = (r: Run) => r.step as ScanOutcome;

describe('the scan runner, transition by transition', () => {
  describe('the session', () => {
    it('logged out: the scan waits for a login and holds the line', async () => {
      setup.session = null;
      const e = scan();
      const r = await runner().run(e);
      expect(r.waiting).toBe(true);
      expect(outcome(r)).toMatchObject({
        kind: 'service_unreachable',
        entryId: e.id,
        reason: { code: 'login_required' },
      });
      expect(calls.waited).toEqual([{ entryId: e.id, trouble: 'login_required' }]);
      expect(calls.ran).toEqual([]);
    });

    it('a scan made for another company ends as an error, nothing closed', async () => {
      const e = scan('firma-2');
      const r = await runner().run(e);
      expect(r.waiting).toBe(false);
      expect(outcome(r)).toMatchObject({ kind: 'error', error: { code: 'account_changed' } });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'error', code: 'account_changed' }]);
      expect(calls.ran).toEqual([]);
    });

    it('a scan received with no company is adopted by the one logged in, and runs', async () => {
      const e = scan('');
      await runner().run(e);
      expect(journal.get(e.id)!.accountId).toBe(ACCOUNT);
      expect(calls.ran).toHaveLength(1);
    });
  });

  describe('the lookup', () => {
    it('a code that cannot be a shipment code: not found, the service not asked, ended', async () => {
      setup.lookup = { kind: 'invalid', code: CODE, message: 'Not a shipment code.' };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'not_found', serviceChecked: false, message: 'Not a shipment code.' });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'not_found', code: null }]);
    });

    it('a code several shipments have: ambiguous with each candidate, ended', async () => {
      const other = shipment(shipmentStates.prepared, 502);
      setup.lookup = {
        kind: 'ambiguous',
        code: CODE,
        candidates: [
          { shipment: prepared, matchedBy: 'externalId' },
          { shipment: other, matchedBy: 'externalId' },
        ],
      };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({
        kind: 'ambiguous',
        candidates: [
          { deliveryId: 501, carrier: 'PPR', recipientName: 'Jiří Dvořák', state: shipmentStates.prepared },
          { deliveryId: 502, carrier: 'PPR', recipientName: 'Jiří Dvořák', state: shipmentStates.prepared },
        ],
      });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'ambiguous', code: null }]);
    });

    it('a code the service says no shipment has: not found, ended', async () => {
      setup.lookup = { kind: 'not_found', code: CODE, serviceChecked: true, serviceError: null };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({
        kind: 'not_found',
        serviceChecked: true,
        message: `No shipment has the code ${CODE}.`,
      });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'not_found', code: null }]);
    });

    it('not in the cache and the service unreachable: the scan waits for the service', async () => {
      setup.lookup = {
        kind: 'not_found',
        code: CODE,
        serviceChecked: false,
        serviceError: { code: 'service_network', message: 'connect ECONNREFUSED' },
      };
      const e = scan();
      const r = await runner().run(e);
      expect(r.waiting).toBe(true);
      expect(outcome(r)).toMatchObject({ kind: 'service_unreachable', reason: { code: 'service_network' } });
      expect(calls.waited).toEqual([{ entryId: e.id, trouble: 'service_network' }]);
      expect(calls.ended).toEqual([]);
    });

    it('not in the cache and the service refused the question: an error, ended', async () => {
      setup.lookup = {
        kind: 'not_found',
        code: CODE,
        serviceChecked: false,
        serviceError: { code: 'service_http', message: 'Přístup odepřen.' },
      };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'error', error: { code: 'service_http', message: 'Přístup odepřen.' } });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'error', code: null }]);
    });

    it('a cancelled shipment: cancelled, ended', async () => {
      setup.lookup = { ...(setup.lookup as object), shipment: shipment(shipmentStates.cancelled) } as LookupResult;
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'cancelled', deliveryId: 501, recipientName: 'Jiří Dvořák' });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'cancelled', code: null }]);
    });

    it('a closed shipment: ended already_closed and the reprint question asked', async () => {
      setup.lookup = { ...(setup.lookup as object), shipment: closed } as LookupResult;
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toEqual(askedOutcome(e.scanId!));
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'already_closed', code: null, deliveryId: 501 }]);
      expect(calls.asked).toEqual([{ scanId: e.scanId, deliveryId: 501 }]);
      expect(calls.ran).toEqual([]);
    });

    it('a state the spec does not name: unknown_state, ended', async () => {
      setup.lookup = { ...(setup.lookup as object), shipment: shipment(99) } as LookupResult;
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'error', error: { code: 'unknown_state' } });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'error', code: null }]);
    });

    it('a prepared shipment: the entry is resolved to it and goes on to the close', async () => {
      const e = scan();
      await runner().run(e);
      expect(journal.get(e.id)).toMatchObject({ step: 'resolved', deliveryId: 501 });
      expect(calls.ran).toEqual([{ entryIds: [e.id], notSent: [] }]);
    });

    it('a prepared shipment on the problem shelf: nothing sent, ended held, the worker is asked', async () => {
      shelf.hold({ accountId: ACCOUNT, code: CODE, deliveryId: 501, reason: 'damaged', note: 'Roztržený obal' }, t0);
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'on_shelf', hold: { deliveryId: 501, reason: 'damaged' } });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'held', code: 'on_shelf', deliveryId: 501 }]);
      expect(calls.ran).toEqual([]);
    });

    it('an entry resolved before (a restart) is not looked up again', async () => {
      const e = scan();
      journal.step([e.id], 'resolved', t0, { deliveryId: 501 });
      setup.lookup = { kind: 'invalid', code: CODE, message: 'Not looked up.' };
      await runner().run(journal.get(e.id)!);
      expect(calls.ended).toEqual([]);
      expect(calls.ran).toEqual([{ entryIds: [e.id], notSent: [] }]);
    });
  });

  describe("the desk's weight (a scale set up)", () => {
    it('the weight step waits (the service, for the weight update): the scan waits', async () => {
      setup.desk = {
        kind: 'wait',
        trouble: { kind: 'unreachable', error: { code: 'service_timeout', message: 'No answer.' } },
      };
      const e = scan();
      const r = await runner().run(e);
      expect(r.waiting).toBe(true);
      expect(calls.waited).toEqual([{ entryId: e.id, trouble: 'service_timeout' }]);
      expect(calls.ran).toEqual([]);
    });

    it('the worker holds the parcel at the weight check: held, ended, nothing sent', async () => {
      setup.desk = { kind: 'held' };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'held', deliveryId: 501, recipientName: 'Jiří Dvořák' });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'held', code: 'weight_held' }]);
      expect(calls.ran).toEqual([]);
    });

    it('the weight step ends the scan (the update refused): an error, ended', async () => {
      setup.desk = { kind: 'end', error: { code: 'rejected', message: 'Hmotnost je mimo rozsah.' } };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toMatchObject({ kind: 'error', error: { code: 'rejected' } });
      expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'error', code: 'rejected' }]);
      expect(calls.ran).toEqual([]);
    });

    it('weighed: the close goes on', async () => {
      setup.desk = { kind: 'go' };
      const e = scan();
      await runner().run(e);
      expect(calls.ran).toEqual([{ entryIds: [e.id], notSent: [] }]);
    });
  });

  describe('the close and print', () => {
    it('a close committed with its scan is sent without a second commit, once', async () => {
      const e = scan();
      journal.step([e.id], 'resolved', t0, { deliveryId: 501 });
      journal.step([e.id], 'close_requested', t0);
      closeNotSent.add(e.id);
      const run = runner();
      await run.run(journal.get(e.id)!);
      await run.run(journal.get(e.id)!);
      expect(calls.ran).toEqual([
        { entryIds: [e.id], notSent: [e.id] },
        { entryIds: [e.id], notSent: [] },
      ]);
    });

    it('queued: the label outcome comes later, when the printer answers, and the desk may check the label', async () => {
      setup.desk = { kind: 'go' };
      const e = scan();
      const r = await runner().run(e);
      expect(r.waiting).toBe(false);
      expect('later' in r.step).toBe(true);
      expect(await (r.step as { later: Promise<ScanOutcome> }).later).toMatchObject({
        kind: 'printed',
        scanId: e.scanId,
      });
      expect(calls.reported).toEqual([e.scanId]);
      expect(calls.labelQueued).toEqual([e.id]);
    });

    it('closed but its labels cannot be had: printer_down with the reason', async () => {
      setup.result = {
        kind: 'not_printed',
        shipment: closed,
        error: { code: 'no_printer_route', message: 'No route.' },
      };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({
        kind: 'printer_down',
        shipment: { deliveryId: 501 },
        reason: { code: 'no_printer_route' },
      });
    });

    it('closed, the labels wait for the service: the worker sees it closed, the scan waits', async () => {
      const trouble = {
        kind: 'unreachable' as const,
        error: { code: 'service_timeout' as const, message: 'No answer.' },
      };
      setup.result = { kind: 'waiting', shipment: closed, closed: true, trouble };
      const r = await runner().run(scan());
      expect(r.waiting).toBe(true);
      expect(outcome(r)).toMatchObject({
        kind: 'queued',
        shipment: { deliveryId: 501 },
        jobIds: [],
        reason: { code: 'service_timeout' },
      });
    });

    it('not closed, the close waits for the service: the scan waits', async () => {
      const trouble = { kind: 'unreachable' as const, error: { code: 'service_network' as const, message: 'Reset.' } };
      setup.result = { kind: 'waiting', shipment: null, closed: false, trouble };
      const e = scan();
      const r = await runner().run(e);
      expect(r.waiting).toBe(true);
      expect(outcome(r)).toMatchObject({
        kind: 'service_unreachable',
        entryId: e.id,
        reason: { code: 'service_network' },
      });
    });

    it('the shipment is gone: not found', async () => {
      setup.result = { kind: 'missing', error: { code: 'not_found', message: 'Zásilka 501 neexistuje.' } };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({ kind: 'not_found', serviceChecked: true, message: 'Zásilka 501 neexistuje.' });
    });

    it('refused, closed elsewhere meanwhile: the reprint question', async () => {
      setup.result = { kind: 'refused', close: { kind: 'closed_elsewhere', shipment: closed } };
      const e = scan();
      const r = await runner().run(e);
      expect(outcome(r)).toEqual(askedOutcome(e.scanId!));
      expect(calls.asked).toEqual([{ scanId: e.scanId, deliveryId: 501 }]);
    });

    it('refused, cancelled meanwhile: cancelled', async () => {
      setup.result = { kind: 'refused', close: { kind: 'cancelled', shipment: shipment(shipmentStates.cancelled) } };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({ kind: 'cancelled', deliveryId: 501, recipientName: 'Jiří Dvořák' });
    });

    it('refused with 404: not found', async () => {
      setup.result = {
        kind: 'refused',
        close: { kind: 'rejected', status: 404, message: 'Nenalezeno.', messages: [] },
      };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({ kind: 'not_found', serviceChecked: true, message: 'Nenalezeno.' });
    });

    it('refused with another HTTP status: an error carrying the status', async () => {
      setup.result = { kind: 'refused', close: { kind: 'rejected', status: 409, message: 'Konflikt.', messages: [] } };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({
        kind: 'error',
        error: { code: 'service_http', message: 'Konflikt.', details: { status: 409 } },
      });
    });

    it("refused by the carrier (422): the carrier's own words", async () => {
      const messages = ['Hmotnost balíku přesahuje limit dopravce.'];
      setup.result = {
        kind: 'refused',
        close: { kind: 'rejected', status: 422, message: 'Chyba validace.', messages },
      };
      const r = await runner().run(scan());
      expect(outcome(r)).toMatchObject({
        kind: 'carrier_rejected',
        carrier: 'PPR',
        message: 'Chyba validace.',
        messages,
      });
    });
  });

  it('a scan the station could not finish (a bug): ended as an internal error, logged, the worker told to scan again', () => {
    const e = scan();
    const r = runner().fail(e, new Error('boom'));
    expect(outcome(r)).toMatchObject({ kind: 'error', error: { code: 'internal' } });
    expect((outcome(r) as { error: { message: string } }).error.message).toMatch(/Scan it again/);
    expect(calls.ended).toEqual([{ entryId: e.id, outcome: 'error', code: 'internal' }]);
    expect(calls.logged).toEqual(['scan failed unexpectedly']);
  });
});
