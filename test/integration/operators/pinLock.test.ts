/**
 * The PIN lock as the README's "Operators" section says it: five wrong PINs in a row make that
 * worker wait 30 seconds. "In a row" is the worker's own row: their sign-in by badge ends it, another
 * worker's guesses do not count toward it, and a restart of the station keeps both the row and the
 * wait (in memory they were gone with the process: a restart handed out five new guesses).
 * Through the real core and its web host's RPC, as the page calls it; the clock is the test's.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { startHostedStation, type HostedStation } from '../../support/station';
import { steppableClock } from '../../support/steppableClock';

const PIN = '4826';
const WRONG = '0000';
const clock = steppableClock();
const open: { hs: HostedStation; rpc: RpcSocket }[] = [];

async function start(dataDir: string) {
  const hs = await startHostedStation({ dataDir, clock, secrets: createMemorySecretStore() });
  const rpc = await connectRpc(hs.host);
  open.push({ hs, rpc });
  return { hs, rpc };
}
async function stop(s: { hs: HostedStation; rpc: RpcSocket }) {
  s.rpc.close();
  await s.hs.close();
  open.splice(open.indexOf(s), 1);
}
afterEach(async () => {
  for (const s of [...open]) await stop(s);
});

const refusalOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return (err as StationCallError).code;
  }
  return 'signed in';
};

async function desk() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-pin-lock-'));
  const s = await start(dataDir);
  await s.rpc.call('settings.set', { desk: { name: 'Balicí stůl 7', signInRequired: false, idleMinutes: 0 } });
  const zdenek = await s.rpc.call('operators.save', { name: 'Zdeněk Šťastný', badge: 'EMP-Ž-17', pin: PIN });
  const ruzena = await s.rpc.call('operators.save', { name: 'Růžena Křížová', badge: null, pin: '9173' });
  return { dataDir, s, zdenek, ruzena };
}

describe('five wrong PINs in a row make that worker wait', () => {
  it('a sign-in by their badge ends the row: four wrong PINs after it are four, not a lock', async () => {
    const { s, zdenek } = await desk();
    const pin = (p: string) => refusalOf(s.rpc.call('operators.signInPin', { operatorId: zdenek.id, pin: p }));
    expect(await pin(WRONG)).toBe('pin_wrong');
    expect((await s.rpc.call('operators.signInBadge', { code: 'EMP-Ž-17' })).operator?.id).toBe(zdenek.id);
    await s.rpc.call('operators.signOut', {});
    for (let i = 1; i <= 4; i++) expect(await pin(WRONG), `wrong PIN ${i} after the badge`).toBe('pin_wrong');
    expect(await pin(WRONG)).toBe('pin_locked');
    expect(await pin(PIN)).toBe('pin_locked');
  });

  it("another worker's wrong PINs do not count toward this worker's row", async () => {
    const { s, zdenek, ruzena } = await desk();
    for (let i = 0; i < 4; i++)
      expect(await refusalOf(s.rpc.call('operators.signInPin', { operatorId: ruzena.id, pin: WRONG }))).toBe(
        'pin_wrong',
      );
    expect(await refusalOf(s.rpc.call('operators.signInPin', { operatorId: zdenek.id, pin: WRONG }))).toBe('pin_wrong');
    expect((await s.rpc.call('operators.signInPin', { operatorId: zdenek.id, pin: PIN })).operator?.id).toBe(zdenek.id);
  });

  it('guesses sent side by side are counted one by one: none gets past the fifth', async () => {
    const { s, zdenek } = await desk();
    const codes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        refusalOf(s.rpc.call('operators.signInPin', { operatorId: zdenek.id, pin: i === 11 ? PIN : WRONG })),
      ),
    );
    expect(codes.filter((c) => c === 'pin_wrong').length).toBeLessThanOrEqual(4);
    expect(codes).not.toContain('signed in');
    expect(codes.filter((c) => c === 'pin_locked').length).toBeGreaterThanOrEqual(8);
  });

  it('a restart keeps the wait, and keeps the row of wrong PINs before it', async () => {
    const { dataDir, s, zdenek, ruzena } = await desk();
    for (let i = 0; i < 5; i++)
      await refusalOf(s.rpc.call('operators.signInPin', { operatorId: zdenek.id, pin: WRONG }));
    for (let i = 0; i < 3; i++)
      await refusalOf(s.rpc.call('operators.signInPin', { operatorId: ruzena.id, pin: WRONG }));
    await stop(s);

    const again = await start(dataDir);
    const pin = (id: number, p: string) => refusalOf(again.rpc.call('operators.signInPin', { operatorId: id, pin: p }));
    expect(await pin(zdenek.id, PIN)).toBe('pin_locked');
    // Three wrong before the restart, two after: the fifth in a row.
    expect(await pin(ruzena.id, WRONG)).toBe('pin_wrong');
    expect(await pin(ruzena.id, WRONG)).toBe('pin_locked');
    clock.advance(31_000);
    expect(await pin(zdenek.id, PIN)).toBe('signed in');
  });
});
