// electron-builder's beforePack hook (electron-builder.yml `beforePack`), once per target
// platform and CPU, before the app's files are laid out: the files that differ per target and
// are not in the source tree are made or checked here, and a target that cannot have them stops
// the packaging with an error instead of shipping something that fails on the desk.
// - better-sqlite3 for Electron, for this target (scripts/native-electron.mjs), which the
//   per-target extraResources entry then copies;
// - on Windows, the pinned current SumatraPDF (scripts/fetch-sumatra.mjs) for pdf-to-printer.
import { ensureTargetBinding } from './native-electron.mjs';
import { ensureSumatra } from './fetch-sumatra.mjs';

// electron-builder's Arch enum (builder-util): the numbers the context carries.
const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
const OS = { win32: 'win', darwin: 'mac', mas: 'mac', linux: 'linux' };

/** @param {{ electronPlatformName: string, arch: number }} context */
export async function beforePack(context) {
  const ebOs = OS[context.electronPlatformName];
  const ebArch = ARCH[context.arch];
  // A universal macOS app is packed as x64 and arm64 first (each passes here) and then merged.
  if (!ebOs || !ebArch || ebArch === 'universal') throw new Error(`beforePack: no native files for ${context.electronPlatformName}-${ebArch ?? context.arch}.`);
  ensureTargetBinding(ebOs, ebArch);
  if (ebOs === 'win') await ensureSumatra(ebArch);
}
