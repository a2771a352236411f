/**
 * What electron-builder would put in one target's package, computed from electron-builder.yml
 * without running it (it needs Electron's downloads for every platform), and the checks the
 * packaging test makes on it.
 *
 * The plan follows electron-builder 26's rules (app-builder-lib: util/config/config.ts,
 * fileMatcher.ts, util/filter.ts, util/appFileCopier.ts, platformPackager.ts): `${os}` and
 * `${arch}` are expanded per target, and patterns are read in order, a later matching pattern
 * deciding (minimatch with dot files, as electron-builder uses it). The app's own files are the
 * union of two matchers when the platform has a `files` list of its own: that list (led by a
 * take-everything pattern when it only excludes, so the whole project but the build resources
 * goes in) and the global `files`; otherwise the global list alone. The production dependencies (package.json
 * `dependencies` and everything they need, as installed) go in whole, minus the exclusions of both
 * lists. `asarUnpack` and `extraResources` are the global and the platform's joined. Left out, as
 * they change nothing checked here: electron-builder's default exclusions of docs and leftovers,
 * and its own layout of nested dependencies. Checked once against a real electron-builder run
 * (Linux x64, `--dir`): the same app files and the same native binaries.
 */
import { readFileSync, readdirSync, statSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { Minimatch } from 'minimatch';
import { parse } from 'yaml';

export interface Target {
  /** electron-builder's platform names (the ${os} macro). */
  os: 'win' | 'mac' | 'linux';
  /** electron-builder's CPU names (the ${arch} macro). */
  arch: 'x64' | 'arm64' | 'ia32' | 'armv7l';
}

export interface PlanEntry {
  /** Where the file lands: `app.asar/…`, `app.asar.unpacked/…` or `resources/…` (extraResources). */
  at: string;
  /** The file it is copied from (absolute); it may not exist here when made at packaging. */
  source: string;
}

type FileSet = string | { from: string; to?: string; filter?: string | string[] };
interface PlatformConfig {
  files?: string[];
  asarUnpack?: string[];
  extraResources?: FileSet[];
}
export type BuilderConfig = PlatformConfig & {
  directories?: { buildResources?: string };
  win?: PlatformConfig;
  mac?: PlatformConfig;
  linux?: PlatformConfig;
};

export function readBuilderConfig(file: string): BuilderConfig {
  return parse(readFileSync(file, 'utf8')) as BuilderConfig;
}

const NODE_PLATFORM = { win: 'win32', mac: 'darwin', linux: 'linux' } as const;
const NODE_ARCH = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', armv7l: 'arm' } as const;

/** electron-builder's minimatchAll: in order, an including pattern can take a path in, an excluding one (`!`) out again. */
function matcher(patterns: string[]): (rel: string) => boolean {
  const parsed = patterns.map((p) => new Minimatch(p, { dot: true }));
  return (rel) => {
    let match = false;
    for (const p of parsed) {
      if (match !== p.negate) continue;
      match = p.match(rel);
    }
    return match;
  };
}

function walk(dir: string, skip: (rel: string) => boolean, base = dir, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = path.relative(base, full).split(path.sep).join('/');
    if (skip(rel)) continue;
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walk(full, skip, base, out);
    else out.push(rel);
  }
  return out;
}

/** The installed folders of the production dependencies, resolved as Node resolves them. */
function productionPackages(projectDir: string): string[] {
  const seen = new Set<string>();
  const visit = (fromDir: string, name: string, optional: boolean) => {
    let dir = fromDir;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) {
        if (!seen.has(candidate)) {
          seen.add(candidate);
          const pkg = JSON.parse(readFileSync(path.join(candidate, 'package.json'), 'utf8')) as {
            dependencies?: object;
            optionalDependencies?: object;
          };
          for (const d of Object.keys(pkg.dependencies ?? {})) visit(candidate, d, false);
          for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(candidate, d, true);
        }
        return;
      }
      const up = path.dirname(dir);
      if (
        up === dir ||
        !path
          .relative(projectDir, up)
          .split(path.sep)
          .every((s) => s !== '..')
      )
        break;
      dir = up;
    }
    if (!optional) throw new Error(`the production dependency ${name} (needed from ${fromDir}) is not installed`);
  };
  const pkg = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as {
    dependencies?: object;
    optionalDependencies?: object;
  };
  for (const d of Object.keys(pkg.dependencies ?? {})) visit(projectDir, d, false);
  for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(projectDir, d, true);
  return [...seen];
}

/** The files of one target's package: app.asar, app.asar.unpacked and resources (extraResources). */
export function packagePlan(projectDir: string, config: BuilderConfig, target: Target): PlanEntry[] {
  const expand = (s: string) => s.replaceAll('${os}', target.os).replaceAll('${arch}', target.arch);
  const own = config[target.os] ?? {};
  const globalFiles = (config.files ?? []).map(expand);
  const ownFiles = (own.files ?? []).map(expand);
  const files = [...globalFiles, ...ownFiles];
  const unpack = matcher([...(config.asarUnpack ?? []), ...(own.asarUnpack ?? [])].map(expand));
  const buildResources = config.directories?.buildResources ?? 'build';
  const ownMatcher =
    ownFiles.length === 0
      ? null
      : matcher([
          ...(ownFiles.every((p) => p.startsWith('!')) ? ['**/*'] : []),
          '!**/node_modules/**',
          `!${buildResources}{,/**/*}`,
          ...ownFiles,
        ]);
  const globalMatcher = matcher(globalFiles);
  const inApp = (rel: string) => globalMatcher(rel) || (ownMatcher?.(rel) ?? false);
  // For node_modules electron-builder takes only the exclusions of both lists, after "everything".
  const inModules = matcher(['**/*', ...files.filter((p) => p.startsWith('!'))]);
  const place = (rel: string, source: string): PlanEntry => ({
    at: `${unpack(rel) ? 'app.asar.unpacked' : 'app.asar'}/${rel}`,
    source,
  });

  const plan: PlanEntry[] = [];
  for (const rel of walk(projectDir, (r) => r === 'node_modules' || r === '.git')) {
    if (inApp(rel)) plan.push(place(rel, path.join(projectDir, rel)));
  }
  for (const dir of productionPackages(projectDir)) {
    for (const inner of walk(dir, (r) => r === 'node_modules' || r.endsWith('/node_modules'))) {
      const rel = path.relative(projectDir, path.join(dir, inner)).split(path.sep).join('/');
      if (inModules(rel)) plan.push(place(rel, path.join(dir, inner)));
    }
  }
  for (const set of [...(config.extraResources ?? []), ...(own.extraResources ?? [])]) {
    const { from, to, filter } = typeof set === 'string' ? { from: set, to: undefined, filter: undefined } : set;
    const src = path.resolve(projectDir, expand(from));
    const dest = expand(to ?? from);
    const st = statSync(src, { throwIfNoEntry: false });
    if (!st || st.isFile()) {
      plan.push({ at: `resources/${dest}`, source: src });
      continue;
    }
    const keep = matcher((filter === undefined ? ['**/*'] : [filter].flat()).map(expand));
    for (const rel of walk(src, () => false))
      if (keep(rel)) plan.push({ at: `resources/${dest}/${rel}`, source: path.join(src, rel) });
  }
  return plan;
}

/** Platform and CPU named by a native binary's header (scripts/binaryTarget.mjs). */
type BinaryTarget = { platform: string; arch: string; arches?: string[] } | null;
interface BinaryTargetModule {
  binaryTarget(b: Buffer): BinaryTarget;
  servesTarget(t: BinaryTarget, platform: string, arch: string): boolean;
}

function header(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4096);
    return b.subarray(0, readSync(fd, b, 0, b.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Each `.node` file of the plan whose header names another platform or CPU than the target's. */
export function wrongNativeBinaries(plan: PlanEntry[], target: Target, bin: BinaryTargetModule): string[] {
  const platform = NODE_PLATFORM[target.os];
  const arch = NODE_ARCH[target.arch];
  return plan
    .filter((e) => e.at.endsWith('.node') && existsSync(e.source))
    .flatMap((e) => {
      const t = bin.binaryTarget(header(e.source));
      return bin.servesTarget(t, platform, arch)
        ? []
        : [`${e.at}: built for ${t ? `${t.platform}-${t.arch}` : 'no known platform'}, not ${platform}-${arch}`];
    });
}

/** App files (outside node_modules) other than package.json, the Electron bundles, the renderer and resources: sources, tests, maps. */
export function strayAppFiles(plan: PlanEntry[]): string[] {
  const allowed =
    /^app\.asar(\.unpacked)?\/(package\.json|dist\/electron\/[^/]+\.cjs|dist\/renderer\/.+|resources\/.+|sandbox\/openapi\/[^/]+\.yaml)$/;
  return plan
    .filter(
      (e) =>
        e.at.startsWith('app.asar') &&
        !e.at.includes('/node_modules/') &&
        (!allowed.test(e.at) || e.at.endsWith('.map')),
    )
    .map((e) => e.at);
}

/** pdf-to-printer and SumatraPDF in a package other than Windows', and pdf-to-printer's own SumatraPDF 3.4.6 in any. */
export function misplacedPrinting(plan: PlanEntry[], target: Target): string[] {
  return plan
    .filter(
      (e) =>
        (target.os !== 'win' && /(^|\/)(pdf-to-printer|sumatra)(\/|$)|sumatrapdf/i.test(e.at)) ||
        /SumatraPDF-3\.4\./i.test(e.at),
    )
    .map((e) => e.at);
}

/** The packages a bundle loads at run time (require, require.resolve, import(), import … from). */
export function requiredPackages(bundleFiles: string[]): Set<string> {
  const builtins = new Set(builtinModules);
  const found = new Set<string>();
  const re = /(?:\brequire(?:\.resolve)?\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+)(["'])([^"'\s]+)\1/g;
  for (const file of bundleFiles) {
    for (const m of readFileSync(file, 'utf8').matchAll(re)) {
      const spec = m[2]!;
      if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec === 'electron') continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!builtins.has(name)) found.add(name);
    }
  }
  return found;
}

/** Packages in `dependencies` nothing loads (copied into the package for nothing), and loaded ones that are not there. */
export function dependencyMismatch(
  dependencies: string[],
  required: Set<string>,
): { unused: string[]; missing: string[] } {
  return {
    unused: dependencies.filter((d) => !required.has(d)).sort(),
    missing: [...required].filter((r) => !dependencies.includes(r)).sort(),
  };
}
