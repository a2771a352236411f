/**
 * The Electron shell, kept thin: one window, the app:// protocol serving the built renderer,
 * and the contract carried over two IPC channels. All logic lives in the core (station.ts),
 * which runs unchanged under plain Node in the web host and the tests.
 */
import { app, BrowserWindow, ipcMain, Menu, net, protocol, screen, session, shell, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from './log';
import { createStation, type Station } from './station';
import { loadWindowState, saveWindowState } from './windowState';

declare const STATION_VERSION: string;

const CALL = 'station:rpc';
const EVENT = 'station:event';
const appRoot = path.join(__dirname, '..', '..');
const rendererDir = path.join(appRoot, 'dist', 'renderer');

/** Links leave the app only to the system browser, and only http(s). */
function openExternalChecked(url: string): void {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' || u.protocol === 'http:') void shell.openExternal(u.toString());
  } catch {
    // Not a URL: nothing to open.
  }
}

function applicationMenu(): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let station: Station | null = null;
  let win: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.whenReady().then(async () => {
    const dataDir = app.getPath('userData');
    const log = createLogger({ dataDir });
    // better-sqlite3 is built twice: node_modules holds the Node build (tests, web host), and
    // native/electron holds the Electron build that `npm start` makes when it is missing.
    process.env.STATION_SQLITE_BINDING ??= app.isPackaged
      ? path.join(process.resourcesPath, 'native', 'better_sqlite3.node')
      : path.join(appRoot, 'native', 'electron', 'better_sqlite3.node');

    protocol.handle('app', (req) => {
      const url = new URL(req.url);
      const file = path.normalize(path.join(rendererDir, decodeURIComponent(url.pathname)));
      if (!file.startsWith(rendererDir + path.sep)) return new Response('Not found', { status: 404 });
      return net.fetch(pathToFileURL(file).toString());
    });

    // Nothing in the renderer may ask for camera, geolocation, notifications...
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));

    station = await createStation({ dataDir, host: 'electron', version: STATION_VERSION, log, openExternal: openExternalChecked });
    ipcMain.handle(CALL, (event, method: unknown, params: unknown) => {
      // Only our own page may call: a navigated-away frame gets nothing.
      if (!event.senderFrame?.url.startsWith('app://station/')) {
        return { ok: false, error: { code: 'forbidden', message: 'Calls are accepted from the station page only.' } };
      }
      return station!.rpc.dispatch(method, params);
    });
    station.rpc.onEvent((name, payload) => {
      if (win && !win.isDestroyed()) win.webContents.send(EVENT, name, payload);
    });

    Menu.setApplicationMenu(applicationMenu());
    const stateFile = path.join(dataDir, 'window.json');
    const bounds = loadWindowState(stateFile, screen.getAllDisplays().map((d) => d.workArea), { width: 1366, height: 768 });
    win = new BrowserWindow({
      ...bounds,
      minWidth: 1024,
      minHeight: 640,
      title: 'Label Station',
      webPreferences: {
        preload: path.join(__dirname, 'preload.cjs'),
        contextIsolation: true,
        nodeIntegration: false,
        sandbox: true,
        webSecurity: true,
        spellcheck: false,
      },
    });
    if (bounds.maximized) win.maximize();
    win.on('close', () => {
      if (!win) return;
      saveWindowState(stateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() });
    });
    win.webContents.setWindowOpenHandler(({ url }) => {
      openExternalChecked(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (e, url) => {
      if (!url.startsWith('app://station/')) e.preventDefault();
      if (/^https?:/.test(url)) openExternalChecked(url);
    });
    await win.loadURL('app://station/index.html');
  });

  app.on('window-all-closed', () => app.quit());
  // Quitting waits (bounded inside close()) for the scan and the label in flight, so neither is left half done.
  let closedCore = false;
  app.on('will-quit', (e) => {
    if (closedCore || !station) return;
    e.preventDefault();
    const s = station;
    station = null;
    void s
      .close()
      .catch(() => undefined)
      .finally(() => {
        closedCore = true;
        app.quit();
      });
  });
}
