/**
 * Picks the transport that is present: the Electron preload's bridge (a MessagePort to the core
 * process, electron/shell/preload.ts), or the loopback web host's WebSocket. Both carry the same JSON
 * messages; screens only see the typed client.
 */
import { create } from 'zustand';
import { createRpcClient, type RpcClient, type RpcTransport } from '../../../shared/rpcClient';
import type { RpcHostMessage, RpcResult } from '../../../shared/rpcEnvelope';

/** What electron/shell/preload.ts exposes through contextBridge (and nothing else: no port, no ipcRenderer). */
export interface StationBridge {
  call(method: string, params: unknown): Promise<RpcResult<unknown>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
  /** The core was restarted: the page is connected to a new one. */
  onReconnect(listener: () => void): () => void;
}

declare global {
  interface Window {
    stationBridge?: StationBridge;
  }
}

/** The WebSocket bridge: reconnects with backoff; calls made while down fail fast and clearly. */
export function webSocketTransport(
  url: string,
  protocols: string[] = [],
): RpcTransport & { onConnection(cb: (up: boolean) => void): void } {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, (r: RpcResult<unknown>) => void>();
  const listeners = new Set<(name: string, payload: unknown) => void>();
  const connectionListeners = new Set<(up: boolean) => void>();
  let opened: Promise<void>;

  const connect = () => {
    const ws = new WebSocket(url, protocols);
    socket = ws;
    opened = new Promise((resolve) => {
      ws.addEventListener('open', () => {
        retryMs = 250;
        connectionListeners.forEach((l) => l(true));
        resolve();
      });
      ws.addEventListener('close', () => resolve());
    });
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as RpcHostMessage;
      if (msg.t === 'event') listeners.forEach((l) => l(msg.name, msg.payload));
      else {
        pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      }
    });
    ws.addEventListener('close', () => {
      for (const [id, resolve] of pending) {
        // Sent, not answered: the station may have done it (a scan asks: scanStore's catchUp).
        resolve({
          ok: false,
          error: { code: 'reply_lost', message: 'The connection to the station was lost before it answered.' },
        });
        pending.delete(id);
      }
      connectionListeners.forEach((l) => l(false));
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    });
  };
  connect();

  return {
    async call(method, params) {
      await opened;
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        return { ok: false, error: { code: 'unavailable', message: 'The station is not connected.' } };
      }
      const id = nextId++;
      const result = new Promise<RpcResult<unknown>>((resolve) => pending.set(id, resolve));
      socket.send(JSON.stringify({ t: 'call', id, method, params }));
      return result;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onConnection(cb) {
      connectionListeners.add(cb);
    },
  };
}

/** Whether the page can reach the station core (always true inside Electron). */
export const useConnection = create<{ connected: boolean }>(() => ({ connected: Boolean(window.stationBridge) }));

/**
 * The web host's per-launch token: taken from the printed address once, kept in this tab's
 * sessionStorage (a reload keeps working) and dropped from the address bar. It is presented only
 * when the socket opens (a subprotocol, see electron/host/webHost.ts), never in a cookie, which
 * the browser would send to every other server on 127.0.0.1.
 */
function stationToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('stationToken', fromUrl);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem('stationToken') ?? '';
}

function pickTransport(): RpcTransport {
  const bridge = window.stationBridge;
  if (bridge) {
    // A new core is a connection lost and back at once: the page catches up as after any loss.
    bridge.onReconnect(() => {
      useConnection.setState({ connected: false });
      useConnection.setState({ connected: true });
    });
    return bridge;
  }
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = webSocketTransport(`${proto}//${location.host}/rpc`, ['station-rpc', `station-token.${stationToken()}`]);
  ws.onConnection((connected) => useConnection.setState({ connected }));
  return ws;
}

export const rpc: RpcClient = createRpcClient(pickTransport());
