#!/usr/bin/env node
// better-sqlite3 for Electron, leaving the Node build in node_modules untouched (tests and the web
// host keep using it). The station's core (the Electron utility process) loads it through better-sqlite3's
// `nativeBinding` option (STATION_SQLITE_BINDING, set by electron/shell/main.ts).
// @napi-rs/keyring and @napi-rs/canvas need nothing: they are N-API modules with prebuilt binaries, so one binary serves Node and Electron.
//
// Two uses:
// - `npm start` (and `node scripts/native-electron.mjs` with no arguments): this machine's build in
//   native/electron/better_sqlite3.node, compiled from source with node-gyp and Electron's headers
//   (a C++ toolchain), once per Electron version.
// - packaging (`--platform P --arch A`, or electron-builder's beforePack hook in
//   scripts/packHooks.mjs, once per target): one copy per target in native/electron/<os>-<arch>/,
//   which electron-builder.yml's extraResources picks by the same ${os}-${arch}. It is the
//   package's published Electron prebuild (prebuild-install --runtime electron --target <Electron>
//   --platform P --arch A, run in a copy of the package), built from source only when the target
//   is this machine. Its header must name the target's platform and CPU; any other outcome stops
//   the packaging with an error: a package never carries this machine's binary for another target.
//   prebuild-install's own mirror setting (npm_config_better_sqlite3_binary_host) points the fetch
//   at an organisation's copy of the release files.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  openSync,
  readSync,
  closeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { binaryTarget, servesTarget } from './binaryTarget.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
// STATION_NATIVE_DIR: another folder for the builds (the packaging tests use a temporary one).
const outDir = process.env.STATION_NATIVE_DIR
  ? path.resolve(process.env.STATION_NATIVE_DIR)
  : path.join(root, 'native', 'electron');
const BINDING = 'better_sqlite3.node';
const STAMP = 'electron-version.txt';

/** electron-builder's names (the ${os} and ${arch} macros) to Node's (process.platform / process.arch). */
const NODE_PLATFORM = { win: 'win32', mac: 'darwin', linux: 'linux' };
const NODE_ARCH = { x64: 'x64', ia32: 'ia32', arm64: 'arm64', armv7l: 'arm' };

const isCurrent = (dir) =>
  existsSync(path.join(dir, BINDING)) &&
  existsSync(path.join(dir, STAMP)) &&
  readFileSync(path.join(dir, STAMP), 'utf8').trim() === electronVersion;

function headerOf(file) {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4096);
    return binaryTarget(b.subarray(0, readSync(fd, b, 0, b.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/** A copy of the better-sqlite3 package without its Node build, to fetch or build the Electron one in. */
function packageCopy() {
  const src = path.dirname(require.resolve('better-sqlite3/package.json'));
  const work = mkdtempSync(path.join(os.tmpdir(), 'bsq3-electron-'));
  cpSync(src, work, {
    recursive: true,
    filter: (p) => !p.includes(`${path.sep}build${path.sep}`) && !p.endsWith(`${path.sep}build`),
  });
  return work;
}

function compile(work, arch) {
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  console.log(
    `Building better-sqlite3 for Electron ${electronVersion} (${process.platform}-${arch}) from source (once; takes a minute)...`,
  );
  const r = spawnSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      `--arch=${arch}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, stdio: 'inherit', env: { ...process.env, npm_config_nodedir: '' } },
  );
  if (r.status !== 0) throw new Error('Building better-sqlite3 for Electron failed (see the output above).');
}

/** The package's published Electron prebuild for platform/arch; false when it could not be had. */
function fetchPrebuild(work, platform, arch) {
  const bin = require.resolve('prebuild-install/bin.js');
  console.log(`Fetching better-sqlite3's Electron ${electronVersion} prebuild for ${platform}-${arch}...`);
  const r = spawnSync(
    process.execPath,
    [bin, '--runtime', 'electron', '--target', electronVersion, '--platform', platform, '--arch', arch, '--verbose'],
    { cwd: work, stdio: 'inherit' },
  );
  return r.status === 0 && existsSync(path.join(work, 'build', 'Release', BINDING));
}

function install(work, dir) {
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(work, 'build', 'Release', BINDING), path.join(dir, BINDING));
  writeFileSync(path.join(dir, STAMP), electronVersion + '\n');
}

export function electronBindingIsCurrent() {
  return isCurrent(outDir);
}

/** This machine's build for `npm start` (native/electron/better_sqlite3.node). */
export function buildElectronBinding() {
  const work = packageCopy();
  try {
    compile(work, process.arch);
    install(work, outDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Where the package for electron-builder's `os`/`arch` takes its binary from (extraResources). */
function targetBindingFile(ebOs, ebArch) {
  return path.join(outDir, `${ebOs}-${ebArch}`, BINDING);
}

/**
 * Makes sure native/electron/<os>-<arch>/better_sqlite3.node is the Electron build for that target
 * (electron-builder's names: os win|mac|linux, arch x64|ia32|arm64|armv7l), or throws saying why.
 */
export function ensureTargetBinding(ebOs, ebArch) {
  const platform = NODE_PLATFORM[ebOs];
  const arch = NODE_ARCH[ebArch];
  if (!platform || !arch)
    throw new Error(
      `better-sqlite3 for Electron: no target "${ebOs}-${ebArch}" (os: win, mac, linux; arch: x64, ia32, arm64, armv7l).`,
    );
  const file = targetBindingFile(ebOs, ebArch);
  const dir = path.dirname(file);
  if (isCurrent(dir) && servesTarget(headerOf(file), platform, arch)) {
    console.log(`better-sqlite3 for Electron ${electronVersion} ${platform}-${arch} is up to date.`);
    return file;
  }
  rmSync(dir, { recursive: true, force: true });
  const work = packageCopy();
  try {
    let got = fetchPrebuild(work, platform, arch);
    if (!got && platform === process.platform && arch === process.arch) {
      compile(work, arch);
      got = true;
    }
    if (!got) {
      throw new Error(
        `No Electron ${electronVersion} build of better-sqlite3 for ${platform}-${arch}: its published prebuild could not be fetched (see the output above), ` +
          `and a build from source is made only for this machine (${process.platform}-${process.arch}). ` +
          `The ${ebOs}-${ebArch} package is not made rather than made with a binary that cannot load there.`,
      );
    }
    const built = path.join(work, 'build', 'Release', BINDING);
    const header = headerOf(built);
    if (!servesTarget(header, platform, arch)) {
      throw new Error(
        `The better-sqlite3 binary obtained for ${platform}-${arch} is built for ${header ? `${header.platform}-${header.arch}` : 'nothing recognisable'}; not packaged.`,
      );
    }
    install(work, dir);
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const values = (name) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));
  const [ebOs] = values('--os');
  if (ebOs) {
    // `--os win --arch x64 [--arch arm64]`: the packaging copies, as the beforePack hook makes them.
    for (const ebArch of values('--arch')) ensureTargetBinding(ebOs, ebArch);
  } else if (!electronBindingIsCurrent()) buildElectronBinding();
  else console.log(`better-sqlite3 for Electron ${electronVersion} is up to date.`);
}
