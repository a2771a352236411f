/**
 * What each package carries, checked on the plan electron-builder.yml makes
 * for every target the station ships (test/support/packagePlan.ts computes it from the config and
 * the built dist/): no native `.node` binary for another platform or CPU (read from each file's
 * ELF / Mach-O / PE header), pdf-to-printer and SumatraPDF in the Windows package only and never
 * pdf-to-printer's own SumatraPDF 3.4.6, and `dependencies` exactly what dist/electron loads at run
 * time (no package copied in for nothing, none loaded that the package lacks). Each check is also
 * shown to fail, on a modified copy of the config or a small project made in a temporary folder.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dependencyMismatch,
  misplacedPrinting,
  packagePlan,
  readBuilderConfig,
  requiredPackages,
  strayAppFiles,
  wrongNativeBinaries,
  type BuilderConfig,
  type Target,
} from '../../support/packagePlan';
import { repoRoot } from '../../support/station';

type BinaryTargetModule = Parameters<typeof wrongNativeBinaries>[2];
const bin = (await import(path.join(repoRoot, 'scripts', 'binaryTarget.mjs'))) as BinaryTargetModule;

const TARGETS: Target[] = [
  { os: 'win', arch: 'x64' },
  { os: 'mac', arch: 'x64' },
  { os: 'mac', arch: 'arm64' },
  { os: 'linux', arch: 'x64' },
  { os: 'linux', arch: 'arm64' },
];
const config = readBuilderConfig(path.join(repoRoot, 'electron-builder.yml'));
const distElectron = path.join(repoRoot, 'dist', 'electron');
const built = existsSync(path.join(distElectron, 'core.cjs'));
const label = (t: Target) => `${t.os}-${t.arch}`;
const nodeBuild = path.join(repoRoot, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The config with one platform's (or the global) `files` patterns changed. */
function withFiles(base: BuilderConfig, where: 'global' | 'mac', edit: (files: string[]) => string[]): BuilderConfig {
  const copy = structuredClone(base);
  if (where === 'global') copy.files = edit(copy.files ?? []);
  else copy.mac = { ...copy.mac, files: edit(copy.mac?.files ?? []) };
  return copy;
}

describe.skipIf(!built && !process.env.CI)('what each package carries (needs `npm run build`)', () => {
  const plans = new Map(TARGETS.map((t) => [label(t), packagePlan(repoRoot, config, t)]));

  it('the plans hold the app: its bundles in app.asar, the workers and native modules unpacked, the per-target better-sqlite3 in resources', () => {
    for (const t of TARGETS) {
      const at = plans.get(label(t))!.map((e) => e.at);
      expect(at, label(t)).toContain('app.asar/dist/electron/core.cjs');
      expect(at, label(t)).toContain('app.asar.unpacked/dist/electron/renderWorker.cjs');
      expect(at, label(t)).toContain('app.asar/node_modules/zod/package.json');
      // better-sqlite3's JavaScript is there, its build sources (deps/, src/: SQLite's C, ~9 MB) are not.
      expect(at, label(t)).toContain('app.asar.unpacked/node_modules/better-sqlite3/lib/index.js');
      expect(
        at.filter((a) => /node_modules\/better-sqlite3\/(deps|src)\//.test(a)),
        label(t),
      ).toEqual([]);
      expect(plans.get(label(t))!.find((e) => e.at === 'resources/native/better_sqlite3.node')?.source, label(t)).toBe(
        path.join(repoRoot, 'native', 'electron', label(t), 'better_sqlite3.node'),
      );
    }
    // This machine's own N-API binaries are there, so the header check has something to read.
    const host = plans
      .get('linux-x64')!
      .filter((e) => e.at.endsWith('.node'))
      .map((e) => e.at);
    expect(host).toContain('app.asar.unpacked/node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node');
    expect(host.some((a) => a.includes('node-hid/prebuilds/HID-linux-x64/'))).toBe(true);
  });

  it('the app part of each package is only package.json, the Electron bundles, the renderer, resources and the sandbox OpenAPI description: no sources, tests or maps', () => {
    for (const t of TARGETS) expect(strayAppFiles(plans.get(label(t))!), label(t)).toEqual([]);
  });

  it('no package carries a native binary for another platform or CPU', () => {
    for (const t of TARGETS) expect(wrongNativeBinaries(plans.get(label(t))!, t, bin), label(t)).toEqual([]);
  });

  it('pdf-to-printer and a current SumatraPDF with its GPL text and source offer are in the Windows package only; its own SumatraPDF 3.4.6 in none', () => {
    for (const t of TARGETS) expect(misplacedPrinting(plans.get(label(t))!, t), label(t)).toEqual([]);
    const win = plans.get('win-x64')!;
    expect(win.map((e) => e.at)).toEqual(
      expect.arrayContaining([
        'app.asar.unpacked/node_modules/pdf-to-printer/dist/bundle.js',
        'resources/sumatra/SumatraPDF.exe',
        'resources/licenses/SumatraPDF-GPL-3.0.txt',
        'resources/licenses/SumatraPDF-SOURCE-OFFER.txt',
      ]),
    );
    expect(win.find((e) => e.at === 'resources/sumatra/SumatraPDF.exe')!.source).toBe(
      path.join(repoRoot, 'build', 'sumatra', 'SumatraPDF.exe'),
    );
    expect(readFileSync(path.join(repoRoot, 'resources', 'licenses', 'SumatraPDF-GPL-3.0.txt'), 'utf8')).toMatch(
      /GNU GENERAL PUBLIC LICENSE\s+Version 3, 29 June 2007/,
    );
    expect(readFileSync(path.join(repoRoot, 'resources', 'licenses', 'SumatraPDF-SOURCE-OFFER.txt'), 'utf8')).toMatch(
      /written offer/i,
    );
    // The licence texts are not in app.asar of any package.
    for (const t of TARGETS)
      expect(
        plans.get(label(t))!.filter((e) => e.at.startsWith('app.asar') && e.at.includes('licenses/')),
        label(t),
      ).toEqual([]);
  });

  it('dependencies are exactly the packages dist/electron loads at run time', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const bundles = readdirSync(distElectron)
      .filter((f) => /\.(c|m)?js$/.test(f))
      .map((f) => path.join(distElectron, f));
    expect(dependencyMismatch(Object.keys(pkg.dependencies), requiredPackages(bundles))).toEqual({
      unused: [],
      missing: [],
    });
  });
});

describe('each packaging check fails on what it is there to catch', () => {
  const mac: Target = { os: 'mac', arch: 'arm64' };

  it('a platform `files` list of exclusions only (electron-builder then takes the whole project) is caught', () => {
    const onlyExclusions = withFiles(config, 'mac', (f) => f.filter((p) => p.startsWith('!')));
    const stray = strayAppFiles(packagePlan(repoRoot, onlyExclusions, mac));
    expect(stray).toEqual(
      expect.arrayContaining([
        'app.asar/README.md',
        'app.asar/electron/shell/main.ts',
        'app.asar/dist/electron/core.cjs.map',
      ]),
    );
  });

  it('a Linux better-sqlite3 in the macOS package (its Node build not left out) is named with the platform it was built for', () => {
    const loose = withFiles(config, 'global', (f) => f.filter((p) => !p.includes('better-sqlite3/build')));
    const wrong = wrongNativeBinaries(packagePlan(repoRoot, loose, mac), mac, bin);
    expect(wrong).toContain(
      `app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node: built for ${process.platform}-${process.arch}, not darwin-arm64`,
    );
  });

  it("other CPUs' prebuilds (node-hid's, when its per-CPU exclusion is gone) are caught in the macOS arm64 package", () => {
    const loose = withFiles(config, 'mac', (f) => f.filter((p) => !p.includes('node-hid')));
    const wrong = wrongNativeBinaries(packagePlan(repoRoot, loose, mac), mac, bin);
    expect(wrong).toContain(
      'app.asar.unpacked/node_modules/node-hid/prebuilds/HID-darwin-x64/node-napi-v4.node: built for darwin-x64, not darwin-arm64',
    );
    expect(wrong.some((w) => w.includes('HID-win32-x64') && w.includes('built for win32-x64'))).toBe(true);
    expect(wrong.some((w) => w.includes('HID-darwin-arm64'))).toBe(false);
  });

  it('a per-target better-sqlite3 made for the wrong target (extraResources) is caught', () => {
    const project = mkdtempSync(path.join(tmpdir(), 'plan-fixture-'));
    temps.push(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0' }));
    mkdirSync(path.join(project, 'native', 'electron', 'mac-arm64'), { recursive: true });
    copyFileSync(nodeBuild, path.join(project, 'native', 'electron', 'mac-arm64', 'better_sqlite3.node'));
    const wrong = wrongNativeBinaries(
      packagePlan(project, { files: ['package.json'], extraResources: config.extraResources }, mac),
      mac,
      bin,
    );
    expect(wrong).toEqual([
      `resources/native/better_sqlite3.node: built for ${process.platform}-${process.arch}, not darwin-arm64`,
    ]);
  });

  it("pdf-to-printer in the macOS package, and pdf-to-printer's own SumatraPDF 3.4.6 in the Windows one, are caught", () => {
    const macLoose = withFiles(config, 'mac', (f) => f.filter((p) => !p.includes('pdf-to-printer')));
    expect(misplacedPrinting(packagePlan(repoRoot, macLoose, mac), mac)).toContain(
      'app.asar/node_modules/pdf-to-printer/dist/bundle.js',
    );
    const win: Target = { os: 'win', arch: 'x64' };
    const winLoose = withFiles(config, 'global', (f) => f.filter((p) => !p.includes('SumatraPDF-')));
    expect(misplacedPrinting(packagePlan(repoRoot, winLoose, win), win)).toEqual([
      'app.asar.unpacked/node_modules/pdf-to-printer/dist/SumatraPDF-3.4.6-32.exe',
    ]);
  });

  it('an unused package in dependencies and a loaded package missing from them are both named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plan-deps-'));
    temps.push(dir);
    writeFileSync(
      path.join(dir, 'core.cjs'),
      `const a = require("zod"); const b = require('node:fs'); const c = require("path"); import("pdf-to-printer"); require.resolve('pdfjs-dist/package.json'); const d = require("left-pad/index.js"); require("electron"); require("./local.cjs");`,
    );
    expect(
      dependencyMismatch(
        ['zod', 'pdf-to-printer', 'pdfjs-dist', 'react'],
        requiredPackages([path.join(dir, 'core.cjs')]),
      ),
    ).toEqual({ unused: ['react'], missing: ['left-pad'] });
  });
});
