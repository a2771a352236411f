/**
 * Held parcels through SIGKILLs: the real station core in a child process (fixtures/stationChild.ts,
 * through its RPC as a page calls it) on a real sandbox over HTTP and a TCP listener as the label
 * printer (test/support/crashRig.ts). Each run holds a parcel and is killed a moment later, at
 * random (before, while or after the hold is stored); the next run, on the same data folder, must
 * list every parcel whose hold was answered, and a scan of a held parcel must close nothing: the
 * service still has it prepared and no label came out. Judged from outside: the service and the
 * printer, and the shelf as the next station serves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeldParcel } from '../../../shared/contract/shelf';
import { buildStationChild, rng, sleep, startChild, startRig, type Child, type Rig } from '../../support/crashRig';

/** The service's number for a prepared shipment (spec "deliveryState"). */
const PREPARED = 0;
const RUNS = 6;

let rig: Rig;
let bundle: Awaited<ReturnType<typeof buildStationChild>>;
let dataDir: string;

beforeAll(async () => {
  bundle = await buildStationChild('shelf-kill');
  rig = await startRig();
  dataDir = mkdtempSync(path.join(tmpdir(), 'station-shelf-kill-'));
}, 120_000);
afterAll(async () => {
  await rig?.close();
  bundle?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function ready(): Promise<Child> {
  const c = startChild({
    childFile: bundle.childFile,
    dataDir,
    sandbox: rig.sandbox,
    printerPort: rig.printer.port,
    printWaitMs: 400,
    watchdogMs: 60_000,
  });
  expect(await c.begin()).toBe(true);
  expect(await c.waitLine((l) => l === 'ready')).toBe('ready');
  return c;
}

/** An RPC through the child; its answer's value. */
async function rpc<T>(c: Child, method: string, params: unknown = {}): Promise<T> {
  const seen = c.lines.length;
  c.send(`rpc ${method} ${JSON.stringify(params)}`);
  const line = await c.waitLine(
    (l) =>
      (l.startsWith(`rpc-ok ${method} `) || l.startsWith(`rpc-error ${method} `)) && c.lines.lastIndexOf(l) >= seen,
  );
  if (!line?.startsWith('rpc-ok')) throw new Error(`${method}: ${line ?? 'no answer'}\n${c.stderr()}`);
  return JSON.parse(line.slice(`rpc-ok ${method} `.length)) as T;
}

describe('the problem shelf through kills', () => {
  it(`over ${RUNS} SIGKILLs around a hold: every hold answered is on the shelf after the restart, and nothing held is closed`, async () => {
    const r = rng(4101);
    const ids = await rig.insertShipments(RUNS);
    const codeOf = new Map([...ids].map(([id, code]) => [code, id]));
    const told = new Set<string>(); // holds the worker saw answered
    let c = await ready();
    await rpc(c, 'shipments.sync');
    for (let run = 1; run <= RUNS; run++) {
      const code = `CR-${run}`;
      const seen = c.lines.length;
      c.send(`rpc shelf.hold ${JSON.stringify({ code, why: { code: 'missing_item' } })}`);
      // Killed at once, a little later, or once the answer is here.
      const wait = r.int(0, 2);
      if (wait === 1) await sleep(r.int(1, 25));
      if (wait === 2) await c.waitLine((l) => l.startsWith('rpc-') && c.lines.lastIndexOf(l) >= seen);
      c.kill();
      await c.exited;
      if (c.lines.slice(seen).some((l) => l.startsWith('rpc-ok shelf.hold '))) told.add(code);

      c = await ready();
      const { parcels } = await rpc<{ parcels: HeldParcel[] }>(c, 'shelf.list');
      const onShelf = new Set(parcels.map((p) => p.code));
      for (const t of told) expect(onShelf, `${t} was answered held before the kill`).toContain(t);
      for (const p of parcels) expect(p.reason).toBe('missing_item');
    }
    expect(told.size).toBeGreaterThan(0);

    // A scan of every held parcel asks and closes nothing; the others close and print as usual.
    const { parcels } = await rpc<{ parcels: HeldParcel[] }>(c, 'shelf.list');
    const held = parcels.map((p) => p.code);
    const printedBefore = rig.printer.printed().length;
    for (const code of held) c.send(`scan ${code}`);
    for (const code of held)
      expect(await c.waitLine((l) => l.startsWith('ack ') && l.endsWith(` ${code}`))).not.toBeNull();
    c.send('settle');
    expect(await c.waitLine((l) => l === 'settled' || l.startsWith('settle-timeout'))).toBe('settled');
    const service = await rig.serviceShipments(held.map((code) => codeOf.get(code)!));
    expect(service.map((s) => s.deliveryState)).toEqual(held.map(() => PREPARED));
    expect(rig.printer.printed().length).toBe(printedBefore);
    expect((await rpc<{ parcels: HeldParcel[] }>(c, 'shelf.list')).parcels.map((p) => p.code)).toEqual(held);
    c.send('quit');
    await c.exited;
  }, 300_000);
});
