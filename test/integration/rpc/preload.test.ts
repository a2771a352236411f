/**
 * The preload (electron/shell/preload.ts), the page's only door to the core, over a real MessagePort
 * served by the real bridge and station core. Electron's renderer side cannot run here (no
 * Electron binary), so `electron` is a named mock: `mockElectronRenderer` records what the
 * preload exposes through contextBridge and what it sends and listens for on ipcRenderer. The
 * ports are worker_threads ports, which have the DOM port's `onmessage` and `postMessage`.
 */
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { nodeRpcPort, serveRpcPort } from '../../../electron/rpc/messagePortBridge';
import type { RpcResult } from '../../../shared/rpcEnvelope';
import { startHostedStation, type HostedStation } from '../../support/station';

/** Mock of the preload's window: only its DOMContentLoaded, fired by the test. */
const mockDomWindow = vi.hoisted(() => {
  const loaded: (() => void)[] = [];
  (globalThis as unknown as { addEventListener: unknown }).addEventListener = (type: string, l: () => void) =>
    type === 'DOMContentLoaded' && loaded.push(l);
  return { fireLoaded: () => loaded.splice(0).forEach((l) => l()) };
});
const mockElectronRenderer = vi.hoisted(() => ({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- vi.hoisted infers its type from these: without it, {}
  exposed: {} as Record<string, unknown>,
  sent: [] as string[],
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as above
  listeners: {} as Record<string, (e: { ports: unknown[] }) => void>,
}));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (mockElectronRenderer.exposed[key] = api) },
  ipcRenderer: {
    send: (channel: string) => mockElectronRenderer.sent.push(channel),
    on: (channel: string, l: (e: { ports: unknown[] }) => void) => (mockElectronRenderer.listeners[channel] = l),
  },
}));

interface Bridge {
  call(method: string, params: unknown): Promise<RpcResult<unknown>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
  onReconnect(listener: () => void): () => void;
}

let hs: HostedStation;
let bridge: Bridge;
const channels: MessageChannel[] = [];
const channel = () => {
  const c = new MessageChannel();
  channels.push(c);
  return c;
};
/** What the main process does on a port request: one end to the core, one to the page. */
function handPort(served: boolean) {
  const { port1, port2 } = channel();
  if (served) serveRpcPort(nodeRpcPort(port1), hs.station.rpc, hs.log);
  mockElectronRenderer.listeners['station:port']!({ ports: [port2] });
}

beforeAll(async () => {
  hs = await startHostedStation({ secrets: createMemorySecretStore() });
  await import('../../../electron/shell/preload');
  bridge = mockElectronRenderer.exposed.stationBridge as Bridge;
});
afterAll(async () => {
  delete (globalThis as { addEventListener?: unknown }).addEventListener;
  channels.forEach((c) => (c.port1.close(), c.port2.close()));
  await hs?.close();
});

describe('the preload over a MessagePort to the core', () => {
  it('asks the main process for its port once the document is there, and exposes exactly call, onEvent and onReconnect', () => {
    expect(mockElectronRenderer.sent).toEqual([]);
    mockDomWindow.fireLoaded();
    expect(mockElectronRenderer.sent).toEqual(['station:port-request']);
    expect(Object.keys(mockElectronRenderer.exposed)).toEqual(['stationBridge']);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'onEvent', 'onReconnect']);
  });

  it('a call made before the port arrives is answered once it does', async () => {
    const early = bridge.call('station.status', {});
    handPort(true);
    expect(await early).toMatchObject({ ok: true, value: { dataDir: hs.dataDir } });
  });

  it('delivers the core’s events to the page’s listeners, until it unsubscribes', async () => {
    const ticks: unknown[] = [];
    const off = bridge.onEvent((name, payload) => name === 'station.tick' && ticks.push(payload));
    await vi.waitFor(() => expect(ticks.length).toBeGreaterThan(0), { timeout: 5000 });
    off();
    const seen = ticks.length;
    // Settings changed by a call come back as an event too.
    const changes: unknown[] = [];
    const later: unknown[] = [];
    bridge.onEvent((name, payload) => name === 'settings.changed' && changes.push(payload));
    expect(await bridge.call('settings.set', { language: 'cs' })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(changes).toEqual([expect.objectContaining({ language: 'cs' })]), { timeout: 5000 });
    // A tick that reached a listener added after `off` did not reach the unsubscribed one.
    bridge.onEvent((name, payload) => name === 'station.tick' && later.push(payload));
    await vi.waitFor(() => expect(later.length).toBeGreaterThan(0), { timeout: 5000 });
    expect(ticks.length).toBe(seen);
  });

  it('the core’s refusals reach the page as result envelopes', async () => {
    expect(await bridge.call('shell.exec', { cmd: 'ls' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await bridge.call('scan.submit', { code: 'Ž'.repeat(201) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('a new port (the core restarted) answers calls in flight "reply_lost", tells the page it is connected again, and the next call goes to the new core', async () => {
    let reconnects = 0;
    const off = bridge.onReconnect(() => reconnects++);
    handPort(false); // a core that never answers: the one that stopped
    expect(reconnects).toBe(1); // a port replaced the one of the tests before
    const inFlight = bridge.call('station.status', {});
    handPort(true);
    // Sent and never answered: the page cannot know whether it was done (a scan asks: scan.submitted).
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'reply_lost' } });
    expect(reconnects).toBe(2);
    expect(await bridge.call('scan.pending', {})).toMatchObject({ ok: true, value: { scans: [] } });
    off();
    handPort(true);
    expect(reconnects).toBe(2);
  });
});
