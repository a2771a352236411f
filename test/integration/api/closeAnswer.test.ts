/**
 * The close answer of a big batch (500 shipments, spec "PATCH /api/v3/deliveries") is read in
 * slices, with the same results and errors as read in one piece. The sandbox
 * answers only well-formed bodies, so a small real HTTP server on 127.0.0.1 stands in for the
 * service here (as in failures.test.ts) and answers what a test gives it.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  ServiceError,
  type AccessTokenSource,
  type CloseRequestItem,
} from '../../../electron/api/index';
import { captureLog } from './support';

let server: http.Server;
let baseUrl: string;
/** The PATCH answer's `data`; every GET (the client's check after an unreadable answer) is a 503. */
let closeData: unknown = null;
let patches = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PATCH') {
        patches++;
        res
          .writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
          .end(JSON.stringify({ code: 200, status: 'success', message: 'ok', data: closeData }));
      } else
        res
          .writeHead(503, { 'content-type': 'application/json; charset=UTF-8' })
          .end(JSON.stringify({ code: 503, status: 'error', message: 'Služba je nedostupná' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const tokens: AccessTokenSource = { accessToken: async () => 'token', renewAfterRejection: async () => 'token' };
const client = () =>
  createServiceClient({
    baseUrl,
    tokens,
    language: () => 'cs',
    log: captureLog(),
    timeoutMs: 5000,
    retryBackoffMs: 10,
    verifyDelayMs: 10,
  });

const FIRST_ID = 7000;
/** A closed shipment as the service sends it (spec "Delivery: response fields"). */
const wire = (n: number) => ({
  deliveryId: FIRST_ID + n,
  deliveryNumber: `NP${String(100000 + n)}`,
  deliveryState: 1,
  deliveryStateName: 'Uzavřená',
  source: '3',
  sourceName: 'API',
  created: '2026-11-24 08:00:00',
  closed: '2026-11-24 08:05:00',
  agent: 'NP',
  deliveryType: 'NP-STANDARD',
  value: '1 250,50',
  valueCurrency: 'CZK',
  cod: null,
  codCurrency: '',
  variableSymbol: 20261124,
  externalId: `ORD-${n}`,
  ticketNote: 'Křehké – neklopit',
  extraServices: [],
  packages: [{ weight: '2,3', length: '30', width: 20, height: '', barcode: `NP${String(900000 + n)}CZ` }],
  recipient: {
    type: 'address',
    surname: 'Dvořáková',
    email: 'dvorakova@example.cz',
    address: { street: 'Dlouhá 1', city: 'Plzeň', postalCode: '30100', state: 'CZ' },
  },
  sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
});
const items: CloseRequestItem[] = Array.from({ length: 500 }, (_, n) => ({
  deliveryId: FIRST_ID + n,
  agent: 'NP',
  sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
}));

describe('the close answer of 500 shipments', () => {
  it('is read whole: every shipment closed, each read as the spec says (decimal comma, numbers as text)', async () => {
    closeData = {
      collectionOrders: [{ agent: 'NP', scheduled: '2026-11-25', collectionPlace: 'WH-PRAHA' }],
      deliveries: Array.from({ length: 500 }, (_, n) => wire(n)),
    };
    const [group] = await client().closeDeliveries(items);
    expect(group!.outcome.status).toBe('closed');
    if (group!.outcome.status !== 'closed') return;
    expect(group!.outcome.confirmedBy).toBe('response');
    expect(group!.outcome.collectionOrders).toEqual([
      { agent: 'NP', scheduled: '2026-11-25', collectionPlace: 'WH-PRAHA' },
    ]);
    const ds = group!.outcome.deliveries;
    expect(ds.map((d) => d.deliveryId)).toEqual(items.map((i) => i.deliveryId));
    expect(ds[437]).toMatchObject({
      deliveryNumber: 'NP100437',
      deliveryState: 1,
      source: 3,
      value: '1250.50',
      codCurrency: null,
      variableSymbol: '20261124',
      ticketNote: 'Křehké – neklopit',
      packages: [{ weight: '2.3', length: 30, width: 20, height: null, barcode: 'NP900437CZ' }],
      recipient: { surname: 'Dvořáková', address: { city: 'Plzeň' } },
    });
  });

  it('with one bad field at shipment 400 is a malformed answer naming it, never a partial success', async () => {
    const deliveries: unknown[] = Array.from({ length: 500 }, (_, n) => wire(n));
    deliveries[400] = { ...wire(400), deliveryId: 'sedm tisíc' };
    closeData = { collectionOrders: null, deliveries };
    const before = patches;
    const [group] = await client().closeDeliveries(items);
    // Not readable: the close may have happened, the check (a search) cannot tell: unknown, not resent.
    expect(group!.outcome.status).toBe('unknown');
    if (group!.outcome.status !== 'unknown') return;
    expect(group!.outcome.error).toBeInstanceOf(ServiceError);
    expect(group!.outcome.error.kind).toBe('malformed');
    expect(group!.outcome.error.message).toBe(
      "The service's close answer could not be read (deliveries.400.deliveryId: Invalid input: expected number, received string).",
    );
    expect(patches - before).toBe(1);
  });

  it('names the first problem in the answer: a bad collection order before a bad shipment, the first bad shipment before a later one', async () => {
    const deliveries: unknown[] = Array.from({ length: 500 }, (_, n) => wire(n));
    deliveries[120] = { ...wire(120), deliveryState: 77 };
    deliveries[480] = { ...wire(480), packages: 'žádné' };
    closeData = { collectionOrders: [{ agent: 'NP', collectionPlace: 'WH-PRAHA' }], deliveries };
    const [a] = await client().closeDeliveries(items);
    expect(a!.outcome.status === 'unknown' && a!.outcome.error.message).toBe(
      "The service's close answer could not be read (collectionOrders.0.scheduled: Invalid input: expected string, received undefined).",
    );

    closeData = { collectionOrders: [], deliveries };
    const [b] = await client().closeDeliveries(items);
    expect(b!.outcome.status === 'unknown' && b!.outcome.error.message).toBe(
      "The service's close answer could not be read (deliveries.120.deliveryState: unknown delivery state).",
    );

    closeData = { collectionOrders: [], deliveries: { 0: wire(0) } };
    const [c] = await client().closeDeliveries(items);
    expect(c!.outcome.status === 'unknown' && c!.outcome.error.message).toBe(
      "The service's close answer could not be read (deliveries: Invalid input: expected array, received object).",
    );
  });
});
