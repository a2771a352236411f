/**
 * The preload: the renderer's only door to the main process. It exposes two functions and
 * nothing else; both carry the RPC contract, whose every call the main side validates.
 * Runs sandboxed (contextIsolation on, nodeIntegration off).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

const CALL = 'station:rpc';
const EVENT = 'station:event';

contextBridge.exposeInMainWorld('stationBridge', {
  call: (method: string, params: unknown) => ipcRenderer.invoke(CALL, method, params),
  onEvent(listener: (name: string, payload: unknown) => void) {
    const wrapped = (_e: IpcRendererEvent, name: string, payload: unknown) => listener(name, payload);
    ipcRenderer.on(EVENT, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT, wrapped);
    };
  },
});
