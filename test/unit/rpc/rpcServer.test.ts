import { describe, expect, it } from 'vitest';
import { methods } from '../../../shared/contract';
import { createRpcServer, mergeHandlers, type Handlers } from '../../../electron/rpc/rpcServer';
import { StationError } from '../../../electron/base/stationError';
import { memoryLogger } from '../../support/memoryLogger';

const status = {
  version: '1.2.3',
  dataDir: '/tmp/x',
  host: 'web' as const,
  service: {
    environment: 'sandbox' as const,
    baseUrl: 'http://127.0.0.1:1',
    reachable: true,
    checkedAt: null,
    error: null,
    errorCode: null,
    errorDetails: null,
  },
  session: { usable: 'usable' as const },
  printers: [],
  keychain: { available: true, message: null },
  storage: { failed: null, restartedAfter: null },
};

function handlers(over: Partial<Handlers> = {}): Handlers {
  const base: Partial<Handlers> = { 'station.status': () => status, 'station.checkService': () => status };
  // Every other method of the contract answers "not here" so the map is complete.
  for (const name of Object.keys(methods)) {
    if (!(name in base))
      (base as Record<string, unknown>)[name] = () => {
        throw new StationError('unknown_method', 'not used in this test');
      };
  }
  return { ...(base as Handlers), ...over };
}

describe('RPC server', () => {
  it('answers a valid call with the handler value in an ok envelope', async () => {
    const rpc = createRpcServer(handlers(), memoryLogger());
    expect(await rpc.dispatch('station.status', {})).toEqual({ ok: true, value: status });
  });

  it('refuses an unknown method with unknown_method and names it', async () => {
    const rpc = createRpcServer(handlers(), memoryLogger());
    const r = await rpc.dispatch('fs.readFile', { path: '/etc/passwd' });
    expect(r).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method: fs.readFile' } });
  });

  it('refuses a method name that is not a string', async () => {
    const rpc = createRpcServer(handlers(), memoryLogger());
    const r = await rpc.dispatch({ toString: 1 }, {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('unknown_method');
  });

  it('refuses params that fail the schema before the handler runs', async () => {
    let ran = false;
    const rpc = createRpcServer(handlers({ 'station.status': () => ((ran = true), status) }), memoryLogger());
    const r = await rpc.dispatch('station.status', { extra: 'field' });
    expect(ran).toBe(false);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_params');
      expect(r.error.message).toContain('station.status');
    }
  });

  it('does not inherit methods from Object.prototype', async () => {
    const rpc = createRpcServer(handlers(), memoryLogger());
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await rpc.dispatch(name, {});
      expect(r.ok).toBe(false);
    }
  });

  it('turns a StationError into its code and message', async () => {
    const rpc = createRpcServer(
      handlers({
        'station.status': () => {
          throw new StationError('printer_error', 'The printer does not answer.');
        },
      }),
      memoryLogger(),
    );
    expect(await rpc.dispatch('station.status', {})).toEqual({
      ok: false,
      error: { code: 'printer_error', message: 'The printer does not answer.', details: undefined },
    });
  });

  it('reports an unexpected failure as internal without leaking its text, and logs it', async () => {
    const log = memoryLogger();
    const rpc = createRpcServer(
      handlers({
        'station.status': () => {
          throw new Error('secret internals at /home/x');
        },
      }),
      log,
    );
    const r = await rpc.dispatch('station.status', {});
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('internal');
      expect(r.error.message).not.toContain('secret internals');
    }
    expect(log.lines.join('\n')).toContain('secret internals');
  });

  it('drops an event whose payload breaks its schema and logs it', () => {
    const log = memoryLogger();
    const rpc = createRpcServer(handlers(), log);
    const seen: unknown[] = [];
    rpc.onEvent((name, payload) => seen.push([name, payload]));
    rpc.emit('station.tick', { now: '2026-11-22T10:00:00.000Z' });
    rpc.emit('station.tick', { now: 42 } as never);
    expect(seen).toEqual([['station.tick', { now: '2026-11-22T10:00:00.000Z' }]]);
    expect(log.lines.some((l) => l.includes('event payload invalid'))).toBe(true);
  });

  it('refuses at start-up a handler map that handles a method twice or misses one', () => {
    expect(() => mergeHandlers({ 'station.status': () => status }, { 'station.status': () => status })).toThrow(
      /twice/,
    );
    expect(() => mergeHandlers({ 'station.status': () => status })).toThrow(/without a handler/);
  });
});
