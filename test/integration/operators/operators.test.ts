/**
 * Operators at the desk, through the real station core and its web host's RPC (as a page uses it):
 * registering workers, signing in by badge and by PIN, refusals that sign nobody out, slowed wrong
 * PINs, sign-out on idle with a clock the test moves, a desk that requires a sign-in before a scan,
 * the journal naming who scanned, and a PIN that is never seen again: not in any answer or event,
 * not in the log file, not in the database.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createLogger } from '../../../electron/base/log';
import type { MethodName, ParamsOf, ResultOf } from '../../../shared/contract';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { startHostedStation, type HostedStation } from '../../support/station';
import { steppableClock } from '../../support/steppableClock';

const JANA_PIN = '73950846';
const PETR_PIN = '5128';
const DONE = ['printed', 'queued', 'printer_down'];

let hs: HostedStation;
let rpc: RpcSocket;
const clock = steppableClock();
/** Every answer the page got, as sent. */
const answers: string[] = [];
let jana: { id: number; name: string };
let petr: { id: number; name: string };

/** A call as the page makes it; its answer (or refusal) kept for the PIN search. */
async function call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
  try {
    const v = await rpc.call(method, params);
    answers.push(JSON.stringify(v));
    return v;
  } catch (err) {
    answers.push(JSON.stringify({ code: (err as StationCallError).code, message: (err as Error).message }));
    throw err;
  }
}
const refusalOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return (err as StationCallError).code;
  }
  return 'not refused';
};
const db = () => new Database(path.join(hs.dataDir, 'station.db'), { readonly: true, fileMustExist: true });
function deskActions() {
  const d = db();
  try {
    return d
      .prepare(
        'SELECT action, operator_id AS operatorId, reason_code AS reasonCode, note, desk FROM desk_actions ORDER BY id',
      )
      .all() as {
      action: string;
      operatorId: number | null;
      reasonCode: string | null;
      note: string | null;
      desk: string;
    }[];
  } finally {
    d.close();
  }
}
const who = () => call('operators.who', {});

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-operators-'));
  // The station's own log file, as the app writes it, and the lines in memory.
  const file = createLogger({ dataDir });
  const lines: string[] = [];
  const log = {
    lines,
    info: (m: string, f?: Record<string, unknown>) => (lines.push(JSON.stringify({ m, ...f })), file.info(m, f)),
    warn: (m: string, f?: Record<string, unknown>) => (lines.push(JSON.stringify({ m, ...f })), file.warn(m, f)),
    error: (m: string, f?: Record<string, unknown>) => (lines.push(JSON.stringify({ m, ...f })), file.error(m, f)),
    flush: () => file.flush(),
  };
  hs = await startHostedStation({ dataDir, log, clock, secrets: createMemorySecretStore(), printWaitMs: 5000 });
  rpc = await connectRpc(hs.host);
  await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: false, idleMinutes: 0 } });
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await hs?.close();
});

describe('registering workers', () => {
  it('adds workers with a badge, a PIN or both, and lists them without any PIN', async () => {
    const a = await call('operators.save', { name: 'Jana Nováková', badge: '!LS-OP-JANA', pin: JANA_PIN });
    expect(a).toEqual({ id: a.id, name: 'Jana Nováková', badge: '!LS-OP-JANA', hasPin: true, supervisor: false });
    const p = await call('operators.save', { name: 'Petr Dvořák', badge: 'EMP-0042', pin: PETR_PIN });
    await call('operators.save', { name: 'Eva Malá', badge: null, pin: '1234' });
    jana = { id: a.id, name: 'Jana Nováková' };
    petr = { id: p.id, name: 'Petr Dvořák' };
    const list = await call('operators.list', {});
    expect(list).toEqual([
      { id: expect.any(Number), name: 'Eva Malá', badge: null, hasPin: true, supervisor: false },
      { id: jana.id, name: 'Jana Nováková', badge: '!LS-OP-JANA', hasPin: true, supervisor: false },
      { id: petr.id, name: 'Petr Dvořák', badge: 'EMP-0042', hasPin: true, supervisor: false },
    ]);
  });

  it('refuses a worker who could never sign in, a badge someone has, a command barcode as a badge, a PIN that is not 4–8 digits', async () => {
    expect(await refusalOf(call('operators.save', { name: 'Nikdo', badge: null }))).toBe('operator_needs_badge_or_pin');
    expect(await refusalOf(call('operators.save', { name: 'Druhá Jana', badge: '!LS-OP-JANA' }))).toBe('badge_taken');
    expect(await refusalOf(call('operators.save', { name: 'Příkaz', badge: '!LS-SIGN_OUT' }))).toBe(
      'badge_is_desk_code',
    );
    expect(await refusalOf(call('operators.save', { name: 'Krátký', badge: null, pin: '123' }))).toBe('invalid_params');
    expect(await refusalOf(call('operators.save', { name: 'Písmena', badge: null, pin: '12ab' }))).toBe(
      'invalid_params',
    );
    expect(await refusalOf(call('operators.save', { name: 'Dlouhý', badge: null, pin: '123456789' }))).toBe(
      'invalid_params',
    );
  });
});

describe('the desk’s settings', () => {
  it('saving another setting keeps the desk’s settings and New shipment’s last sender', async () => {
    await call('settings.set', { newShipment: { lastSenderPlace: 'Sklad Brno' } });
    await call('settings.set', { language: 'cs' });
    await call('settings.set', { sounds: false });
    expect(await call('settings.get', {})).toMatchObject({
      language: 'cs',
      sounds: false,
      desk: { name: 'Balicí stůl 3', signInRequired: false, idleMinutes: 0 },
      newShipment: { lastSenderPlace: 'Sklad Brno' },
    });
  });

  it('refuses an idle time beyond 8 hours or a desk name left empty', async () => {
    expect(
      await refusalOf(call('settings.set', { desk: { name: 'Stůl', signInRequired: false, idleMinutes: 481 } })),
    ).toBe('invalid_params');
    expect(await refusalOf(call('settings.set', { desk: { name: ' ', signInRequired: false, idleMinutes: 5 } }))).toBe(
      'invalid_params',
    );
  });
});

describe('signing in and out', () => {
  it('a badge signs its worker in; the desk action says how', async () => {
    const changed = rpc.waitFor('operators.changed', (w) => w.operator?.id === jana.id);
    expect(await call('operators.signInBadge', { code: '!LS-OP-JANA' })).toEqual({
      desk: 'Balicí stůl 3',
      operator: jana,
    });
    expect(await changed).toEqual({ desk: 'Balicí stůl 3', operator: jana });
    expect(deskActions().at(-1)).toMatchObject({
      action: 'sign_in',
      operatorId: jana.id,
      reasonCode: 'badge',
      desk: 'Balicí stůl 3',
    });
  });

  it('an unknown badge is refused and signs nobody out', async () => {
    expect(await refusalOf(call('operators.signInBadge', { code: '!LS-OP-NOBODY' }))).toBe('badge_unknown');
    expect((await who()).operator).toEqual(jana);
    expect(deskActions().at(-1)).toMatchObject({
      action: 'sign_in_refused',
      reasonCode: 'badge_unknown',
      note: '!LS-OP-NOBODY',
    });
  });

  it('another worker’s badge switches to them; their own badge again signs them out', async () => {
    expect((await call('operators.signInBadge', { code: 'EMP-0042' })).operator).toEqual(petr);
    expect(deskActions().slice(-2)).toMatchObject([
      { action: 'sign_out', operatorId: jana.id, reasonCode: 'badge' },
      { action: 'sign_in', operatorId: petr.id, reasonCode: 'badge' },
    ]);
    expect((await call('operators.signInBadge', { code: 'EMP-0042' })).operator).toBeNull();
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_out', operatorId: petr.id, reasonCode: 'badge' });
  });

  it('a PIN signs its worker in; a wrong one is refused and signs nobody out', async () => {
    expect((await call('operators.signInPin', { operatorId: jana.id, pin: JANA_PIN })).operator).toEqual(jana);
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_in', operatorId: jana.id, reasonCode: 'pin' });
    expect(await refusalOf(call('operators.signInPin', { operatorId: petr.id, pin: '0000' }))).toBe('pin_wrong');
    expect((await who()).operator).toEqual(jana);
    expect(deskActions().at(-1)).toMatchObject({
      action: 'sign_in_refused',
      operatorId: jana.id,
      reasonCode: 'pin_wrong',
      note: 'Petr Dvořák',
    });
  });

  it('five wrong PINs in a row make that worker wait 30 s, even with the right PIN; then it works', async () => {
    // One wrong already (above): four more.
    for (let i = 0; i < 3; i++)
      expect(await refusalOf(call('operators.signInPin', { operatorId: petr.id, pin: '1111' }))).toBe('pin_wrong');
    expect(await refusalOf(call('operators.signInPin', { operatorId: petr.id, pin: '2222' }))).toBe('pin_locked');
    expect(await refusalOf(call('operators.signInPin', { operatorId: petr.id, pin: PETR_PIN }))).toBe('pin_locked');
    expect((await who()).operator).toEqual(jana);
    clock.advance(31_000);
    expect((await call('operators.signInPin', { operatorId: petr.id, pin: PETR_PIN })).operator).toEqual(petr);
  });

  it('the sign-out button and the sign-out command say how in the desk action', async () => {
    expect((await call('operators.signOut', {})).operator).toBeNull();
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_out', operatorId: petr.id, reasonCode: 'manual' });
    await call('operators.signInBadge', { code: 'EMP-0042' });
    expect((await call('operators.signOut', { way: 'command' })).operator).toBeNull();
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_out', operatorId: petr.id, reasonCode: 'command' });
  });

  it('signs the worker out after the desk’s idle time without a scan or an action, not before', async () => {
    await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: false, idleMinutes: 2 } });
    await call('operators.signInBadge', { code: '!LS-OP-JANA' });
    clock.advance(90_000);
    expect((await who()).operator).toEqual(jana);
    // An action of the worker (a print's settings saved counts as much as a scan) starts the time again.
    await call('settings.set', { sounds: true });
    clock.advance(90_000);
    expect((await who()).operator).toEqual(jana);
    // A page following the core (calls marked `reads` in the contract) is not the worker acting.
    await call('scan.recent', {});
    await call('station.status', {});
    await call('printing.queue.list', {});
    const seen = rpc.events('operators.changed').length;
    clock.advance(31_000);
    const out = await rpc.waitFor('operators.changed', () => rpc.events('operators.changed').length > seen);
    expect(rpc.events('operators.changed').at(-1)).toEqual({ desk: 'Balicí stůl 3', operator: null });
    void out;
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_out', operatorId: jana.id, reasonCode: 'idle' });
    await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: false, idleMinutes: 0 } });
  });
});

describe('editing a worker', () => {
  it('a new name shows at once for the signed-in worker; a new PIN replaces the old; a removed PIN no longer signs in', async () => {
    const eva = (await call('operators.list', {})).find((o) => o.name === 'Eva Malá')!;
    await call('operators.signInPin', { operatorId: eva.id, pin: '1234' });
    const renamed = rpc.waitFor('operators.changed', (w) => w.operator?.name === 'Eva Veliká');
    expect(await call('operators.save', { id: eva.id, name: 'Eva Veliká', badge: null })).toEqual({
      id: eva.id,
      name: 'Eva Veliká',
      badge: null,
      hasPin: true,
      supervisor: false,
    });
    expect(await renamed).toMatchObject({ operator: { id: eva.id, name: 'Eva Veliká' } });
    await call('operators.signOut', {});

    await call('operators.save', { id: eva.id, name: 'Eva Veliká', badge: null, pin: '864209' });
    expect(await refusalOf(call('operators.signInPin', { operatorId: eva.id, pin: '1234' }))).toBe('pin_wrong');
    expect((await call('operators.signInPin', { operatorId: eva.id, pin: '864209' })).operator?.id).toBe(eva.id);
    await call('operators.signOut', {});

    // Without a badge the PIN is her only way in: it cannot be taken away alone.
    expect(await refusalOf(call('operators.save', { id: eva.id, name: 'Eva Veliká', badge: null, pin: null }))).toBe(
      'operator_needs_badge_or_pin',
    );
    expect(await call('operators.save', { id: eva.id, name: 'Eva Veliká', badge: 'EMP-0077', pin: null })).toEqual({
      id: eva.id,
      name: 'Eva Veliká',
      badge: 'EMP-0077',
      hasPin: false,
      supervisor: false,
    });
    expect(await refusalOf(call('operators.signInPin', { operatorId: eva.id, pin: '864209' }))).toBe('pin_wrong');
    expect((await who()).operator).toBeNull();
  });
});

describe('scans at a desk with operators', () => {
  const journal = () => {
    const d = db();
    try {
      return d.prepare('SELECT code, operator_id AS operatorId, desk FROM journal_entries ORDER BY id').all() as {
        code: string;
        operatorId: number | null;
        desk: string;
      }[];
    } finally {
      d.close();
    }
  };

  it('a desk code or a registered badge is never taken as a parcel', async () => {
    const before = journal().length;
    for (const code of ['!LS-OP-JANA', '!LS-SIGN_OUT', '!LS-SOMETHING', 'EMP-0042'])
      expect(await refusalOf(call('scan.submit', { code }))).toBe('desk_code_not_parcel');
    expect(await refusalOf(call('batch.collect', { code: '!LS-OP-JANA' }))).toBe('desk_code_not_parcel');
    expect(journal().length).toBe(before);
  });

  it('with sign-in required and nobody signed in a scan, a close, a print or a cancellation is refused and nothing is kept; signed in, the same scan goes', async () => {
    await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: true, idleMinutes: 0 } });
    expect((await who()).operator).toBeNull();
    const before = journal().length;
    expect(await refusalOf(call('scan.submit', { code: 'ORD-1001' }))).toBe('sign_in_required');
    expect(await refusalOf(call('batch.collect', { code: 'ORD-1002' }))).toBe('sign_in_required');
    expect(journal().length).toBe(before);
    expect(await call('scan.pending', {})).toMatchObject({ scans: [] });

    // Every other piece of parcel work is the worker's too: refused, nothing done, nothing recorded.
    const jobs = await call('printing.queue.list', {});
    const jobId = jobs[0]?.id ?? 1;
    const actionsBefore = deskActions().length;
    const refused = {
      closeAll: await refusalOf(call('batch.closeAll', {})),
      cancel: await refusalOf(call('shipments.cancel', { deliveryIds: [1] })),
      reprint: await refusalOf(call('printing.queue.reprint', { jobId, why: { code: 'damaged' } })),
      queueCancel: await refusalOf(call('printing.queue.cancel', { jobId })),
      cancelParcel: await refusalOf(call('commands.cancelParcel', {})),
      labelCheck: await refusalOf(call('verify.check', { code: 'ORD-1001' })),
    };
    expect(refused).toEqual({
      closeAll: 'sign_in_required',
      cancel: 'sign_in_required',
      reprint: 'sign_in_required',
      queueCancel: 'sign_in_required',
      cancelParcel: 'sign_in_required',
      labelCheck: 'sign_in_required',
    });
    expect(journal().length).toBe(before);
    expect(deskActions().length).toBe(actionsBefore);
    expect(await call('printing.queue.list', {})).toEqual(jobs);
    // Settings stay open, so an admin is never locked out of the desk: the requirement can be turned off and on.
    await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: false, idleMinutes: 0 } });
    await call('settings.set', { desk: { name: 'Balicí stůl 3', signInRequired: true, idleMinutes: 0 } });

    await call('operators.signInBadge', { code: 'EMP-0042' });
    const outcome = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001', 30_000);
    await call('scan.submit', { code: 'ORD-1001' });
    expect(DONE).toContain((await outcome).kind);
    // The journal's entry of the scan names who scanned it, at which desk.
    expect(journal().filter((e) => e.code === 'ORD-1001')).toEqual([
      { code: 'ORD-1001', operatorId: petr.id, desk: 'Balicí stůl 3' },
    ]);
  });

  it('a removed worker is signed out and can no longer sign in; their name stays on what they did', async () => {
    await call('operators.remove', { id: petr.id });
    expect((await who()).operator).toBeNull();
    expect(deskActions().at(-1)).toMatchObject({ action: 'sign_out', operatorId: petr.id, reasonCode: 'removed' });
    expect(await refusalOf(call('operators.signInBadge', { code: 'EMP-0042' }))).toBe('badge_unknown');
    expect(await refusalOf(call('operators.signInPin', { operatorId: petr.id, pin: PETR_PIN }))).toBe(
      'operator_not_found',
    );
    const d = db();
    try {
      expect(d.prepare('SELECT name FROM operators WHERE id = ?').get(petr.id)).toEqual({ name: 'Petr Dvořák' });
    } finally {
      d.close();
    }
  });
});

describe('the PIN is never seen again', () => {
  it('not in any answer or event, not in the log file, not in the database', async () => {
    await (hs.log as unknown as { flush(): Promise<void> }).flush();
    const events = [...rpc.events('operators.changed'), ...rpc.events('operators.listChanged')];
    const seen = [...answers, ...events.map((e) => JSON.stringify(e)), ...hs.log.lines].join('\n');
    expect(seen.length).toBeGreaterThan(1000);
    for (const pin of [JANA_PIN, PETR_PIN]) expect(seen).not.toContain(pin);
    // Nor its hash (bcrypt's hashes begin $2a$ / $2b$).
    expect(seen).not.toMatch(/\$2[aby]\$/);

    const logFile = path.join(hs.dataDir, 'logs', 'station.log');
    expect(existsSync(logFile)).toBe(true);
    const logText = readFileSync(logFile, 'utf8');
    expect(logText).toContain('embedded sandbox started');
    expect(logText).not.toContain(JANA_PIN);
    expect(logText).not.toMatch(/\$2[aby]\$/);

    // The database and its write-ahead log hold the hash, never the PIN itself.
    const bytes = ['station.db', 'station.db-wal']
      .map((f) => path.join(hs.dataDir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(bytes).toMatch(/\$2[aby]\$10\$/);
    expect(bytes).not.toContain(JANA_PIN);
    const d = db();
    try {
      const row = d.prepare('SELECT pin_hash AS h FROM operators WHERE id = ?').get(jana.id) as { h: string };
      expect(row.h).toMatch(/^\$2[aby]\$10\$.{53}$/);
    } finally {
      d.close();
    }
  });
});
