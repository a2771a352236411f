/** The plain-Node parts of the Electron shell: the data-folder rule and the app:// handler's answers. */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appResponseHeaders, resolveAppRequest } from '../../../electron/shell/appProtocol';
import { dataDirArgument, resolveDataDir } from '../../../electron/base/dataDir';

describe('one data-folder rule for both hosts (docs/OPERATIONS.md "Data folder")', () => {
  const env = { STATION_DATA_DIR: '/srv/station-data' };
  it('takes --data-dir first, in either spelling', () => {
    expect(dataDirArgument(['/opt/Label Station/label-station', '--data-dir', '/d1'])).toBe('/d1');
    expect(dataDirArgument(['electron', '.', '--data-dir=/d2', '--web'])).toBe('/d2');
    expect(resolveDataDir('/d1', env, 'linux')).toBe('/d1');
    expect(resolveDataDir('rel', env, 'linux')).toBe(path.resolve('rel'));
  });
  it('then STATION_DATA_DIR, then the per-OS default', () => {
    expect(dataDirArgument(['electron', '.'])).toBeUndefined();
    expect(resolveDataDir(undefined, env, 'linux')).toBe('/srv/station-data');
    expect(resolveDataDir(undefined, {}, 'linux')).toBe(path.join(os.homedir(), '.local', 'share', 'label-station'));
    expect(resolveDataDir(undefined, { XDG_DATA_HOME: '/x' }, 'linux')).toBe(path.join('/x', 'label-station'));
    expect(resolveDataDir(undefined, {}, 'darwin')).toBe(
      path.join(os.homedir(), 'Library', 'Application Support', 'Label Station'),
    );
    expect(resolveDataDir(undefined, { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      path.join('C:\\Users\\a\\AppData\\Roaming', 'Label Station'),
    );
  });
});

describe('the app:// handler', () => {
  const dir = path.resolve('/opt/app/dist/renderer');
  it('serves files of the renderer build under app://station/', () => {
    expect(resolveAppRequest('app://station/index.html', dir)).toEqual({ file: path.join(dir, 'index.html') });
    expect(resolveAppRequest('app://station/', dir)).toEqual({ file: path.join(dir, 'index.html') });
    expect(resolveAppRequest('app://station/assets/app.js', dir)).toEqual({ file: path.join(dir, 'assets', 'app.js') });
  });
  it('serves only its own host', () => {
    for (const u of [
      'app://evil/index.html',
      'app://station.evil/index.html',
      'app://localhost/index.html',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(resolveAppRequest(u, dir), u).toMatchObject({ status: 404 });
    }
  });
  it('never leaves the renderer folder, and takes no writes', () => {
    // The URL parser folds dot segments, so a climb stays inside the folder.
    expect(resolveAppRequest('app://station/%2e%2e/%2e%2e/etc/passwd', dir)).toEqual({
      file: path.join(dir, 'etc', 'passwd'),
    });
    expect(resolveAppRequest('app://station/..%2f..%2fetc/passwd', dir)).toMatchObject({ status: 404 });
    expect(resolveAppRequest('app://station/%E0%A4%A', dir)).toMatchObject({ status: 404 });
    expect(resolveAppRequest('app://station/index.html', dir, 'POST')).toMatchObject({ status: 405 });
  });
  it('puts a strict CSP header on every answer', () => {
    const header = appResponseHeaders()['content-security-policy']!;
    // Read back as the browser reads it: directive -> sources.
    const policy = Object.fromEntries(
      header
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources.join(' ')]),
    );
    expect(policy).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data: blob:",
      'media-src': "'self' data: blob:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(header).not.toMatch(/unsafe-(eval|inline)/);
    expect(appResponseHeaders()).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });
});
