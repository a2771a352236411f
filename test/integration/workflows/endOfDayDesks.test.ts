/**
 * End of day at two desks of one company on one sandbox (each its own data folder and printers):
 * a parcel on a protocol another desk made leaves this desk's list when the screen opens (spec
 * "GET /api/v2/collection-protocols": the station reads the protocols one by one, as the service
 * lists none), and a Create the service refuses for parcels another desk's protocol has says so
 * and takes them off the list (spec "POST /api/v2/collection-protocols": 422 when nothing of the
 * carrier and place is waiting; "States and transitions" rule 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError } from '../../../electron/base/stationError';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { adminPost, shipment } from '../api/support';
import { startRig, type Rig } from './workflowRig';

let sb: Sandbox;
let deskA: Rig;
let deskB: Rig;
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  deskA = await startRig(sb);
  deskB = await startRig(sb);
});
afterAll(async () => {
  await deskA?.close();
  await deskB?.close();
  await sb?.close();
});

/** A parcel from the Prague warehouse for the national post, scanned (closed and printed) at a desk. */
async function scannedAt(desk: Rig, surname: string): Promise<number> {
  const [d] = await desk.session.client.insertDeliveries([
    shipment({ recipient: { ...shipment().recipient, surname } }),
  ]);
  expect((await desk.workflows.scanToClose.scan(d!.externalId!)).kind).toBe('printed');
  return d!.deliveryId;
}

/** What a desk's End of day lists for NP at WH-PRAHA when the screen opens. */
async function waitingAt(desk: Rig): Promise<number[]> {
  const list = await desk.workflows.endOfDay.candidates();
  expect(list.refreshError).toBeNull();
  return list.candidates.find((c) => c.carrier === 'NP' && c.collectionPlace === 'WH-PRAHA')?.deliveryIds ?? [];
}

describe('end of day at several desks of one company', () => {
  it('a parcel on the protocol one desk made is listed at no desk, whichever desk closed it', async () => {
    const a1 = await scannedAt(deskA, 'Novák');
    const a2 = await scannedAt(deskA, 'Šťastná');
    const b1 = await scannedAt(deskB, 'Dvořák');
    // Both desks list the company's parcels, also those the other desk closed.
    expect(await waitingAt(deskB)).toEqual(expect.arrayContaining([a1, a2, b1]));

    const fromA = await deskA.workflows.endOfDay.createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(fromA.protocol.deliveryIds).toEqual(expect.arrayContaining([a1, a2, b1]));

    // Desk B opens End of day: nothing of A's protocol is waiting there any more.
    const atB = await waitingAt(deskB);
    for (const id of [a1, a2, b1]) expect(atB).not.toContain(id);

    // Later parcels: B makes their protocol, and A no longer lists them either.
    const b2 = await scannedAt(deskB, 'Čermák');
    const a3 = await scannedAt(deskA, 'Řezníčková');
    expect(await waitingAt(deskA)).toEqual(expect.arrayContaining([b2, a3]));
    const fromB = await deskB.workflows.endOfDay.createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(fromB.protocol.deliveryIds).toEqual(expect.arrayContaining([b2, a3]));
    const atA = await waitingAt(deskA);
    for (const id of [a1, a2, b1, b2, a3]) expect(atA).not.toContain(id);
  });

  it('a Create refused because another desk made the protocol meanwhile says which one and takes the parcels off the list', async () => {
    const b1 = await scannedAt(deskB, 'Holubová');
    // B's screen is open and lists the parcel…
    expect(await waitingAt(deskB)).toContain(b1);
    // …while A makes the day's protocol for the carrier and place.
    const fromA = await deskA.workflows.endOfDay.createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(fromA.protocol.deliveryIds).toContain(b1);

    const refused = await deskB.workflows.endOfDay
      .createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StationError);
    expect((refused as StationError).code).toBe('protocol_made_elsewhere');
    expect((refused as StationError).details).toEqual({ protocolIds: [fromA.protocol.collectionProtocolId] });
    // The list the worker sees next agrees with the sentence, without asking the service again.
    const after = await deskB.workflows.endOfDay.candidates({ refresh: false });
    expect(after.candidates.flatMap((c) => c.deliveryIds)).not.toContain(b1);
  });

  it("another company's protocols among the numbers (403 to this company) are passed over, not taken for the end", async () => {
    // Another company of the service makes protocols before and after desk A's: the numbers around it are theirs.
    const before = await otherCompanyProtocols(2);
    const a1 = await scannedAt(deskA, 'Veselá');
    const fromA = await deskA.workflows.endOfDay.createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' });
    const after = await otherCompanyProtocols(2);
    expect(Math.max(...before)).toBeLessThan(fromA.protocol.collectionProtocolId);
    expect(Math.min(...after)).toBeGreaterThan(fromA.protocol.collectionProtocolId);
    expect(await waitingAt(deskB)).not.toContain(a1);
  });
});

/** Protocols made by the sandbox's second company (spec "Errors": 403 for another company's protocol), one shipment each. */
async function otherCompanyProtocols(n: number): Promise<number[]> {
  const { access_token: token } = await adminPost<{ access_token: string }>(sb, 'tokens', {
    clientId: sb.demo.clientId,
    username: 'other',
    scope: sb.demo.scope,
  });
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${sb.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return ((await res.json()) as { data: unknown }).data;
  };
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [d] = (await call('POST', '/api/v3/deliveries', { deliveries: [shipment()] })) as { deliveryId: number }[];
    await call('PATCH', '/api/v3/deliveries', { deliveries: [{ deliveryId: d!.deliveryId, closed: true }] });
    const p = (await call('POST', '/api/v2/collection-protocols', { agent: 'NP', collectionPlace: 'WH-PRAHA' })) as {
      collectionProtocolId: number;
    };
    ids.push(p.collectionProtocolId);
  }
  return ids;
}
