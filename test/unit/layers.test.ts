import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/station';

// Each fixture under test/fixtures/layers/ is a tiny tree that breaks exactly one house rule
// (docs/ARCHITECTURE.md, "Layers"); the checker must refuse it and name that rule.
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'layers');
const expected: Record<string, string> = {
  'electron-only-in-main-and-preload': 'electron-only-in-main-and-preload',
  'shared-only-zod': 'shared-only-zod', // side-effect `import 'node:fs'`
  'shared-only-zod-package': 'shared-only-zod', // a package other than zod
  'shared-imports-only-shared': 'shared-imports-only-shared',
  'renderer-no-node': 'renderer-no-node', // template-literal `import(\`node:fs\`)`
  'renderer-browser-packages-only': 'renderer-browser-packages-only',
  'renderer-only-through-contract': 'renderer-only-through-contract',
  'core-not-renderer': 'core-not-renderer',
  'sandbox-standalone': 'sandbox-standalone',
  'api-client-not-sandbox': 'api-client-not-sandbox',
  'sql-only-in-store': 'sql-only-in-store', // better-sqlite3 imported outside electron/store/
  'sql-only-in-store-raw-db': 'sql-only-in-store', // the store's raw database module opened outside it
  'composition-root-only-wires': 'composition-root-only-wires', // station.ts opens a repository itself
  'layers-no-computed-import': 'layers-no-computed-import',
  'layers-resolvable': 'layers-resolvable',
};

const check = (dir?: string) =>
  spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'check-layers.mjs'), ...(dir ? [dir] : [])], {
    encoding: 'utf8',
  });

describe('layer rules of the house', () => {
  it('every fixture has an expected rule (a new fixture cannot go unchecked)', () => {
    expect(readdirSync(fixtures).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('refuses the fixture %s, naming the rule %s', (fixture, rule) => {
    const run = check(path.join(fixtures, fixture));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(rule);
    // Exactly one broken rule per fixture, so a fixture cannot pass by breaking a different rule.
    expect(run.stderr.match(/^(error [\w-]+:|.*\(layers-[\w-]+\))/gm)).toHaveLength(1);
  });

  it('hold for the whole tree', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^layers: ok/);
  });
});
