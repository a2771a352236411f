/**
 * The preload: the renderer's only door to the station. It asks the main process for a
 * MessagePort to the core (electron/host/coreProcess.ts) and exposes three functions over it, nothing
 * else: the page never sees ipcRenderer or the port itself. Messages are JSON text, as over the
 * web host's WebSocket (electron/rpc/callMessage.ts); the core validates every call.
 * Runs sandboxed (contextIsolation on, nodeIntegration off).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { RpcHostMessage, RpcResult } from '../../shared/rpcEnvelope';

const PORT_REQUEST = 'station:port-request';
const PORT = 'station:port';

/** The DOM MessagePort the preload gets (the project's types have no DOM, so its used part). */
interface PagePort {
  postMessage(text: string): void;
  close(): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

let port: PagePort | null = null;
let nextId = 1;
/** Calls made before the first port arrives wait here (the page may call while the core starts). */
const unsent: string[] = [];
const pending = new Map<number, (r: RpcResult<unknown>) => void>();
const listeners = new Set<(name: string, payload: unknown) => void>();
const reconnectListeners = new Set<() => void>();

function received(ev: { data: unknown }): void {
  const msg = JSON.parse(String(ev.data)) as RpcHostMessage;
  if (msg.t === 'event') {
    listeners.forEach((l) => l(msg.name, msg.payload));
  } else {
    pending.get(msg.id)?.(msg.result);
    pending.delete(msg.id);
  }
}

// A new port (the first, or after the core was restarted) replaces the old one: calls that were
// in flight on the old one are answered "reply_lost" (sent, maybe done, the answer gone) rather
// than left waiting forever, and the page hears that it is connected again (to a new core: what
// the old one told after its last message, and the answers lost, the page asks again).
ipcRenderer.on(PORT, (e: IpcRendererEvent) => {
  const next = e.ports[0] as unknown as PagePort | undefined;
  if (!next) return;
  const replaced = port !== null;
  if (port) {
    port.close();
    for (const [id, resolve] of pending) {
      resolve({
        ok: false,
        error: { code: 'reply_lost', message: 'The station restarted while answering.' },
      });
      pending.delete(id);
    }
  }
  port = next;
  port.onmessage = received;
  for (const text of unsent.splice(0)) port.postMessage(text);
  if (replaced) reconnectListeners.forEach((l) => l());
});
// Asked once the document is there: by then the main process knows this frame's app:// address,
// which it checks before it hands out a port. The page's first calls wait in `unsent` meanwhile.
const page = globalThis as unknown as {
  addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
};
page.addEventListener('DOMContentLoaded', () => ipcRenderer.send(PORT_REQUEST), { once: true });

contextBridge.exposeInMainWorld('stationBridge', {
  call(method: string, params: unknown): Promise<RpcResult<unknown>> {
    const id = nextId++;
    const text = JSON.stringify({ t: 'call', id, method, params });
    const result = new Promise<RpcResult<unknown>>((resolve) => pending.set(id, resolve));
    if (port) port.postMessage(text);
    else unsent.push(text);
    return result;
  },
  onEvent(listener: (name: string, payload: unknown) => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** The core was restarted and this page is connected to the new one (calls in flight were answered `reply_lost`). */
  onReconnect(listener: () => void) {
    reconnectListeners.add(listener);
    return () => {
      reconnectListeners.delete(listener);
    };
  },
});
