/**
 * The Electron shell, kept thin: one window, menus, the app:// protocol serving the built
 * renderer, and the seams that need Electron (the system browser, dialogs, updates). The core
 * (station.ts) runs in a utility process (electron/host/coreProcess.ts), so its synchronous work never
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
import type { MainToCore } from '../host/coreProcess';
import { CoreStartError, createCoreSupervisor } from './coreSupervisor';
import { dataDirArgument, resolveDataDir } from '../base/dataDir';
import { loadWindowState, saveWindowState } from './windowState';
import { grantsPermission } from './mediaPermission';

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

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  // One data-folder rule for both hosts (electron/base/dataDir.ts): --data-dir, STATION_DATA_DIR, per-OS default.
  const dataDir = resolveDataDir(dataDirArgument(process.argv.slice(1)));

  const tell = (child: UtilityProcess, msg: MainToCore, ports?: Electron.MessagePortMain[]) =>
    child.postMessage(msg, ports);

  // The core process, started again when it stops on its own (electron/shell/coreSupervisor.ts).
  const supervisor = createCoreSupervisor({
    // No `cwd`: one inside app.asar makes the utility process fail to start (electron/electron#41396).
    fork: () => utilityProcess.fork(corePath, [], { serviceName: 'Label Station core', stdio: 'inherit' }),
    dataDir,
    openExternal: openExternalChecked,
    restarted: () => {
      if (win && !win.isDestroyed()) connectPage(win.webContents);
    },
    giveUp: (err, title) => failAndQuit(err, title),
  });
  const coreChild = () => supervisor.ready() as UtilityProcess | null;
  const startCore = () => supervisor.start();

  /** The main process's few lines go to the station log, which the core writes. */
  function mainLog(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void {
    const core = coreChild();
    if (core) tell(core, { t: 'log', level, message, fields });
    else (level === 'error' ? console.error : console.log)(message, fields ?? '');
  }

  /** Hands a page one end of a fresh channel and the core the other. */
  function connectPage(wc: WebContents): void {
    const core = coreChild();
    if (!core || wc.isDestroyed()) return;
    const { port1, port2 } = new MessageChannelMain();
    tell(core, { t: 'connect' }, [port1]);
    wc.postMessage(PORT, null, [port2]);
  }

  /**
   * A start that fails (a damaged database, a missing SQLite binding, a data folder that cannot
   * be written) must not leave a process with no window: say why, where the log is, and quit.
   */
  function failAndQuit(err: unknown, title = 'Label Station could not start'): void {
    supervisor.quitting();
    const message = err instanceof Error ? err.message : String(err);
    const file = err instanceof CoreStartError ? err.logFile : supervisor.logFile();
    supervisor.current()?.kill();
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
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy getter above, which import() misses
    const { autoUpdater } = require('electron-updater') as typeof import('electron-updater');
    autoUpdater.logger = {
      info: (m: unknown) => mainLog('info', `updater: ${String(m)}`),
      warn: (m: unknown) => mainLog('warn', `updater: ${String(m)}`),
      error: (m: unknown) => mainLog('error', `updater: ${String(m)}`),
    };
    autoUpdater.autoInstallOnAppQuit = true;
    await autoUpdater.checkForUpdatesAndNotify();
  }

  app
    .whenReady()
    .then(async () => {
      // better-sqlite3 is built twice: node_modules holds the Node build (tests, web host), and
      // native/electron holds the Electron build that `npm start` makes when it is missing. The
      // core process inherits this environment. Packaged, only the app's own build is loaded: an
      // inherited STATION_SQLITE_BINDING would make the signed app load any .node file it names.
      if (app.isPackaged)
        process.env.STATION_SQLITE_BINDING = path.join(process.resourcesPath, 'native', 'better_sqlite3.node');
      else process.env.STATION_SQLITE_BINDING ||= path.join(appRoot, 'native', 'electron', 'better_sqlite3.node');
      // The current SumatraPDF the Windows package carries, for pdf-to-printer (windowsPdfDriver.ts);
      // packaged, only the app's own (the same care as the binding above).
      if (app.isPackaged)
        process.env.STATION_SUMATRA_PDF = path.join(process.resourcesPath, 'sumatra', 'SumatraPDF.exe');
      else process.env.STATION_SUMATRA_PDF ||= path.join(appRoot, 'build', 'sumatra', 'SumatraPDF.exe');

      // Only app://station/, only files of the renderer build, every answer with the CSP header.
      protocol.handle('app', async (req) => {
        const answer = resolveAppRequest(req.url, rendererDir, req.method);
        if ('status' in answer)
          return new Response(answer.text, { status: answer.status, headers: appResponseHeaders() });
        const res = await net.fetch(pathToFileURL(answer.file).toString());
        const headers = new Headers(res.headers);
        for (const [k, v] of Object.entries(appResponseHeaders())) headers.set(k, v);
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      });

      // The page uses one permission, the desk camera (video only, app://station/'s top frame:
      // mediaPermission.ts); microphone, geolocation, notifications, clipboard reads, HID, serial
      // and USB are all refused, asked for or merely checked. (The scale and USB label printers are
      // reached by the core process, never by the page.)
      session.defaultSession.setPermissionRequestHandler((_wc, permission, cb, details) =>
        cb(
          grantsPermission({
            permission,
            url: details.requestingUrl,
            isMainFrame: details.isMainFrame,
            mediaTypes: 'mediaTypes' in details ? (details.mediaTypes ?? []) : [],
          }),
        ),
      );
      session.defaultSession.setPermissionCheckHandler((_wc, permission, origin, details) =>
        grantsPermission({
          permission,
          url: origin,
          isMainFrame: details.isMainFrame,
          mediaTypes: 'mediaType' in details && details.mediaType ? [details.mediaType] : [],
        }),
      );
      session.defaultSession.setDevicePermissionHandler(() => false);

      await startCore();

      ipcMain.on(PORT_REQUEST, (event) => {
        // Only our own window's top frame showing app://station/ gets a port: an embedded frame or
        // any other address gets nothing.
        const frame = event.senderFrame;
        if (
          !win ||
          event.sender !== win.webContents ||
          !frame ||
          frame !== event.sender.mainFrame ||
          !frame.url.startsWith(`${APP_ORIGIN}/`)
        )
          return;
        connectPage(event.sender);
      });

      Menu.setApplicationMenu(applicationMenu(!app.isPackaged));
      const stateFile = path.join(dataDir, 'window.json');
      const bounds = loadWindowState(
        stateFile,
        screen.getAllDisplays().map((d) => d.workArea),
        { width: 1366, height: 768 },
      );
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
      checkForUpdates().catch((err: unknown) =>
        mainLog('warn', 'the update check failed', { error: err instanceof Error ? err.message : String(err) }),
      );
    })
    .catch((err: unknown) => failAndQuit(err));

  app.on('window-all-closed', () => app.quit());
  // Quitting waits for the core to close (bounded inside close(): the scan and the label in
  // flight finish first); a core that does not answer within 30 s is ended.
  let closedCore = false;
  app.on('will-quit', (e) => {
    const child = supervisor.current() as UtilityProcess | null;
    if (closedCore || !child) return;
    e.preventDefault();
    supervisor.quitting();
    const timer = setTimeout(() => child.kill(), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      closedCore = true;
      app.quit();
    });
    tell(child, { t: 'close' });
  });
}
