/**
 * The packaged app's Electron fuses: electron-builder.yml's `electronFuses`
 * turns off RunAsNode, NODE_OPTIONS and the --inspect arguments and turns on asar integrity and
 * load-only-from-asar, and every key is one electron-builder's own configuration schema knows
 * (app-builder-lib's FuseOptionsV1), so a misspelt key cannot be silently ignored.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/station';

/** The `electronFuses:` mapping of electron-builder.yml (a flat block of `key: true|false`). */
function fusesBlock(): Record<string, boolean> {
  const lines = readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^electronFuses:\s*$/.test(l));
  expect(start, 'electron-builder.yml has an electronFuses block').toBeGreaterThanOrEqual(0);
  const out: Record<string, boolean> = {};
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    if (!/^\s/.test(line)) break;
    const m = /^\s+([A-Za-z]+):\s*(true|false)\s*(#.*)?$/.exec(line);
    expect(m, `a "key: true|false" line: ${line}`).not.toBeNull();
    out[m![1]!] = m![2] === 'true';
  }
  return out;
}

describe('Electron fuses at packaging', () => {
  it('electron-builder.yml turns off RunAsNode, NODE_OPTIONS and --inspect, and turns on asar integrity and only-load-from-asar', () => {
    expect(fusesBlock()).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('every key is a fuse electron-builder knows', () => {
    const schema = JSON.parse(
      readFileSync(path.join(repoRoot, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'),
    ) as {
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    const known = Object.keys(schema.definitions.FuseOptionsV1.properties);
    for (const key of Object.keys(fusesBlock())) expect(known).toContain(key);
  });
});
