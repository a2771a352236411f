// electron-builder's beforePack hook (electron-builder.yml `beforePack`), once per target
// platform and CPU, before the app's files are laid out: the files that differ per target and
// are not in the source tree are made or checked here, and a target that cannot have them stops
// the packaging with an error instead of shipping something that fails on the desk.
// - better-sqlite3 for Electron, for this target (scripts/native-electron.mjs), which the
//   per-target extraResources entry then copies;
// - @napi-rs/canvas and @napi-rs/keyring: npm installs only the build machine's binary package
//   (an optional dependency); the target's own must be installed too;
// - on Windows, the pinned current SumatraPDF (scripts/fetch-sumatra.mjs) for pdf-to-printer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTargetBinding } from './native-electron.mjs';
import { ensureSumatra } from './fetch-sumatra.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

// electron-builder's Arch enum (builder-util): the numbers the context carries.
const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
const NODE_ARCH = { ia32: 'ia32', x64: 'x64', armv7l: 'arm', arm64: 'arm64' };
const OS = { win32: 'win', darwin: 'mac', mas: 'mac', linux: 'linux' };
const NODE_PLATFORM = { win: 'win32', mac: 'darwin', linux: 'linux' };

const installed = (name) => {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
};

/** The target's binary package of each N-API package that ships one per platform, or an error naming it. */
function checkNapiBinaries(platform, arch) {
  for (const name of ['@napi-rs/canvas', '@napi-rs/keyring']) {
    const pkg = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8'));
    const own = new RegExp(`^${name}-${platform}-${arch}(-(gnu|msvc|gnueabihf))?$`);
    const wanted = Object.keys(pkg.optionalDependencies ?? {}).filter((d) => own.test(d));
    if (wanted.length === 0)
      throw new Error(`${name} ${pkg.version} publishes no binary for ${platform}-${arch}; the package is not made.`);
    if (!wanted.some(installed)) {
      throw new Error(
        `${name}'s binary for ${platform}-${arch} is not installed (npm installs only this machine's): ` +
          `npm install --no-save --force ${wanted.map((w) => `${w}@${pkg.optionalDependencies[w]}`).join(' ')}`,
      );
    }
  }
}

/** @param {{ electronPlatformName: string, arch: number }} context */
export async function beforePack(context) {
  const ebOs = OS[context.electronPlatformName];
  const ebArch = ARCH[context.arch];
  // A universal macOS app is packed as x64 and arm64 first (each passes here) and then merged.
  if (!ebOs || !ebArch || ebArch === 'universal')
    throw new Error(`beforePack: no native files for ${context.electronPlatformName}-${ebArch ?? context.arch}.`);
  ensureTargetBinding(ebOs, ebArch);
  checkNapiBinaries(NODE_PLATFORM[ebOs], NODE_ARCH[ebArch]);
  if (ebOs === 'win') await ensureSumatra(ebArch);
}
