/**
 * The Electron shell, kept thin: one window, menus, the app:// protocol serving the built
 * renderer, and the seams that need Electron (the system browser, dialogs, updates). The core
 * (station.ts) runs in a utility process (electron/coreProcess.ts), so its synchronous work never
 * delays the window's input events; each page gets a MessagePort straight to it, and the same
 * core runs unchanged under plain Node in the web host and the tests.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  MessageChannelMain,
  net,
  protocol,
  screen,
  session,
  shell,
  utilityProcess,
  type MenuItemConstructorOptions,
  type UtilityProcess,
  type WebContents,
} from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ORIGIN, appResponseHeaders, resolveAppRequest } from './appProtocol';
import type { CoreToMain, MainToCore } from './coreProcess';
import { dataDirArgument, resolveDataDir } from './dataDir';
import { loadWindowState, saveWindowState } from './windowState';

/** The page asks for its port (on every load); the answer carries one end of a MessageChannel. */
const PORT_REQUEST = 'station:port-request';
const PORT = 'station:port';
const corePath = path.join(__dirname, 'core.cjs');
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

/** A core that stopped before it was ready: its reason and where its log is, for the dialog. */
class CoreStartError extends Error {
  constructor(
    message: string,
    readonly logFile: string | null,
  ) {
    super(message);
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;
  let core: UtilityProcess | null = null;
  let coreReady = false;
  let logFile: string | null = null;
  let quitting = false;
  const restarts: number[] = [];

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  // One data-folder rule for both hosts (electron/dataDir.ts): --data-dir, STATION_DATA_DIR, per-OS default.
  const dataDir = resolveDataDir(dataDirArgument(process.argv.slice(1)));

  const tell = (child: UtilityProcess, msg: MainToCore, ports?: Electron.MessagePortMain[]) => child.postMessage(msg, ports);

  /** The main process's few lines go to the station log, which the core writes. */
  function mainLog(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void {
    if (core && coreReady) tell(core, { t: 'log', level, message, fields });
    else (level === 'error' ? console.error : console.log)(message, fields ?? '');
  }

  /** Forks the core and resolves once it serves the contract (or rejects with why it cannot). */
  function startCore(): Promise<void> {
    return new Promise((resolve, reject) => {
      // No `cwd`: one inside app.asar makes the utility process fail to start (electron/electron#41396).
      const child = utilityProcess.fork(corePath, [], { serviceName: 'Label Station core', stdio: 'inherit' });
      core = child;
      coreReady = false;
      let settled = false;
      let wasReady = false;
      child.once('spawn', () => tell(child, { t: 'start', dataDir }));
      child.on('message', (msg: CoreToMain) => {
        if (msg.t === 'ready') {
          coreReady = true;
          wasReady = true;
          logFile = msg.logFile;
          settled = true;
          resolve();
        } else if (msg.t === 'failed') {
          settled = true;
          reject(new CoreStartError(msg.message, msg.logFile));
        } else if (msg.t === 'openExternal') {
          openExternalChecked(msg.url);
        }
      });
      child.on('exit', (code) => {
        if (core === child) {
          core = null;
          coreReady = false;
        }
        if (!settled) {
          settled = true;
          reject(new CoreStartError(`The station core stopped (exit code ${code}) before it was ready.`, logFile));
        } else if (wasReady && !quitting) {
          // A core that failed its start has said why (the dialog shows it): only a running core is restarted.
          void coreStopped(code);
        }
      });
    });
  }

  /** Hands a page one end of a fresh channel and the core the other. */
  function connectPage(wc: WebContents): void {
    if (!core || !coreReady || wc.isDestroyed()) return;
    const { port1, port2 } = new MessageChannelMain();
    tell(core, { t: 'connect' }, [port1]);
    wc.postMessage(PORT, null, [port2]);
  }

  /**
   * The core stopped on its own (a crash): a new one starts and the page gets a new port (its
   * calls in flight answer "unavailable"; the journal resumes the scan that was cut off). A third
   * stop within a minute means it cannot run: said in a dialog, and the app quits.
   */
  async function coreStopped(code: number): Promise<void> {
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length >= 3) {
      failAndQuit(new CoreStartError(`The station core stopped ${restarts.length} times within a minute (last exit code ${code}).`, logFile), 'Label Station stopped');
      return;
    }
    try {
      await startCore();
      mainLog('error', 'the station core stopped unexpectedly and was started again', { exitCode: code });
      if (win && !win.isDestroyed()) connectPage(win.webContents);
    } catch (err) {
      failAndQuit(err);
    }
  }

  /**
   * A start that fails (a damaged database, a missing SQLite binding, a data folder that cannot
   * be written) must not leave a process with no window: say why, where the log is, and quit.
   */
  function failAndQuit(err: unknown, title = 'Label Station could not start'): void {
    quitting = true;
    const message = err instanceof Error ? err.message : String(err);
    const file = err instanceof CoreStartError ? err.logFile : logFile;
    core?.kill();
    const where = file ? `The log is in ${file}.` : `No log could be written in the data folder ${dataDir}.`;
    dialog.showErrorBox(title, `${message}\n\n${where}`);
    app.exit(1);
  }

  /**
   * Updates come only from the feed named when the installer was built (STATION_UPDATE_URL, which
   * scripts/dist.mjs writes into app-update.yml); an unpackaged or unconfigured app never asks.
   * A downloaded update installs when the app quits, never in the middle of a shift.
   */
  async function checkForUpdates(): Promise<void> {
    if (!app.isPackaged || !existsSync(path.join(process.resourcesPath, 'app-update.yml'))) return;
    // require, not import(): its `autoUpdater` is a lazy getter that ESM's named-export detection misses.
    const { autoUpdater } = require('electron-updater') as typeof import('electron-updater');
    autoUpdater.logger = {
      info: (m: unknown) => mainLog('info', `updater: ${String(m)}`),
      warn: (m: unknown) => mainLog('warn', `updater: ${String(m)}`),
      error: (m: unknown) => mainLog('error', `updater: ${String(m)}`),
    };
    autoUpdater.autoInstallOnAppQuit = true;
    await autoUpdater.checkForUpdatesAndNotify();
  }

  app.whenReady().then(async () => {
    // better-sqlite3 is built twice: node_modules holds the Node build (tests, web host), and
    // native/electron holds the Electron build that `npm start` makes when it is missing. The
    // core process inherits this environment. Packaged, only the app's own build is loaded: an
    // inherited STATION_SQLITE_BINDING would make the signed app load any .node file it names.
    if (app.isPackaged) process.env.STATION_SQLITE_BINDING = path.join(process.resourcesPath, 'native', 'better_sqlite3.node');
    else process.env.STATION_SQLITE_BINDING ||= path.join(appRoot, 'native', 'electron', 'better_sqlite3.node');
    // The current SumatraPDF the Windows package carries, for pdf-to-printer (windowsPdfDriver.ts);
    // packaged, only the app's own (the same care as the binding above).
    if (app.isPackaged) process.env.STATION_SUMATRA_PDF = path.join(process.resourcesPath, 'sumatra', 'SumatraPDF.exe');
    else process.env.STATION_SUMATRA_PDF ||= path.join(appRoot, 'build', 'sumatra', 'SumatraPDF.exe');

    // Only app://station/, only files of the renderer build, every answer with the CSP header.
    protocol.handle('app', async (req) => {
      const answer = resolveAppRequest(req.url, rendererDir, req.method);
      if ('status' in answer) return new Response(answer.text, { status: answer.status, headers: appResponseHeaders() });
      const res = await net.fetch(pathToFileURL(answer.file).toString());
      const headers = new Headers(res.headers);
      for (const [k, v] of Object.entries(appResponseHeaders())) headers.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    });

    // The page uses no permission and no device: camera, microphone, geolocation, notifications,
    // clipboard reads, HID, serial and USB are all refused, asked for or merely checked. (The scale
    // and USB label printers are reached by the core process, never by the page.)
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    session.defaultSession.setDevicePermissionHandler(() => false);

    await startCore();
    // Earlier builds kept their data in Electron's userData folder; say where it is rather than
    // silently starting afresh (it is not moved: the worker or an admin decides).
    const legacy = app.getPath('userData');
    if (path.resolve(legacy) !== dataDir && existsSync(path.join(legacy, 'station.db')) && !existsSync(path.join(dataDir, 'station.db'))) {
      mainLog('warn', 'a station database from an earlier version is in another folder; start with --data-dir to use it', { legacy, dataDir });
    }

    ipcMain.on(PORT_REQUEST, (event) => {
      // Only our own window's top frame showing app://station/ gets a port: an embedded frame or
      // any other address gets nothing.
      const frame = event.senderFrame;
      if (!win || event.sender !== win.webContents || !frame || frame !== event.sender.mainFrame || !frame.url.startsWith(`${APP_ORIGIN}/`)) return;
      connectPage(event.sender);
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
    checkForUpdates().catch((err: unknown) => mainLog('warn', 'the update check failed', { error: err instanceof Error ? err.message : String(err) }));
  }).catch((err: unknown) => failAndQuit(err));

  app.on('window-all-closed', () => app.quit());
  // Quitting waits for the core to close (bounded inside close(): the scan and the label in
  // flight finish first); a core that does not answer within 30 s is ended.
  let closedCore = false;
  app.on('will-quit', (e) => {
    const child = core;
    if (closedCore || !child) return;
    e.preventDefault();
    quitting = true;
    const timer = setTimeout(() => child.kill(), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      closedCore = true;
      app.quit();
    });
    tell(child, { t: 'close' });
  });
}
