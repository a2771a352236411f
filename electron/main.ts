/**
 * The Electron shell, kept thin: one window, the app:// protocol serving the built renderer,
 * and the contract carried over two IPC channels. All logic lives in the core (station.ts),
 * which runs unchanged under plain Node in the web host and the tests.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, screen, session, shell, type MenuItemConstructorOptions } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ORIGIN, appResponseHeaders, resolveAppRequest } from './appProtocol';
import { dataDirArgument, resolveDataDir } from './dataDir';
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

/** DevTools only in development: in the installed app they would open the page to anyone at the desk. */
function applicationMenu(withDevTools: boolean): Menu {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(withDevTools ? [{ role: 'toggleDevTools' as const }] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
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

  // One data-folder rule for both hosts (electron/dataDir.ts): --data-dir, STATION_DATA_DIR, per-OS default.
  const dataDir = resolveDataDir(dataDirArgument(process.argv.slice(1)));
  let log: ReturnType<typeof createLogger> | null = null;

  app.whenReady().then(async () => {
    log = createLogger({ dataDir });
    // Earlier builds kept their data in Electron's userData folder; say where it is rather than
    // silently starting afresh (it is not moved: the worker or an admin decides).
    const legacy = app.getPath('userData');
    if (path.resolve(legacy) !== dataDir && existsSync(path.join(legacy, 'station.db')) && !existsSync(path.join(dataDir, 'station.db'))) {
      log.warn('a station database from an earlier version is in another folder; start with --data-dir to use it', { legacy, dataDir });
    }
    // better-sqlite3 is built twice: node_modules holds the Node build (tests, web host), and
    // native/electron holds the Electron build that `npm start` makes when it is missing.
    process.env.STATION_SQLITE_BINDING ??= app.isPackaged
      ? path.join(process.resourcesPath, 'native', 'better_sqlite3.node')
      : path.join(appRoot, 'native', 'electron', 'better_sqlite3.node');

    // Only app://station/, only files of the renderer build, every answer with the CSP header.
    protocol.handle('app', async (req) => {
      const answer = resolveAppRequest(req.url, rendererDir, req.method);
      if ('status' in answer) return new Response(answer.text, { status: answer.status, headers: appResponseHeaders() });
      const res = await net.fetch(pathToFileURL(answer.file).toString());
      const headers = new Headers(res.headers);
      for (const [k, v] of Object.entries(appResponseHeaders())) headers.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    });

    // Nothing in the renderer may ask for camera, geolocation, notifications...
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));

    const started = await createStation({ dataDir, host: 'electron', version: STATION_VERSION, log, openExternal: openExternalChecked });
    station = started;
    ipcMain.handle(CALL, (event, method: unknown, params: unknown) => {
      // Only our own page may call: a navigated-away frame gets nothing.
      if (!event.senderFrame?.url.startsWith(`${APP_ORIGIN}/`)) {
        return { ok: false, error: { code: 'forbidden', message: 'Calls are accepted from the station page only.' } };
      }
      return started.rpc.dispatch(method, params);
    });
    started.rpc.onEvent((name, payload) => {
      if (win && !win.isDestroyed()) win.webContents.send(EVENT, name, payload);
    });

    Menu.setApplicationMenu(applicationMenu(!app.isPackaged));
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
        devTools: !app.isPackaged,
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
      if (!url.startsWith(`${APP_ORIGIN}/`)) e.preventDefault();
      if (/^https?:/.test(url)) openExternalChecked(url);
    });
    await win.loadURL(`${APP_ORIGIN}/index.html`);
  }).catch(async (err: unknown) => {
    // A start that fails (a damaged database, a missing SQLite binding, a data folder that cannot
    // be written) must not leave a process with no window: say why, where the log is, and quit.
    const message = err instanceof Error ? err.message : String(err);
    log?.error('the station could not start', { error: message });
    const s = station;
    station = null;
    await s?.close().catch(() => undefined);
    const where = log?.file ? `The log is in ${log.file}.` : `No log could be written in the data folder ${dataDir}.`;
    dialog.showErrorBox('Label Station could not start', `${message}\n\n${where}`);
    app.exit(1);
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
