import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/station';

describe('layer rules of the house', () => {
  it('hold for the whole tree (electron import, shared, renderer, sandbox)', () => {
    const out = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'check-layers.mjs')], { encoding: 'utf8' });
    expect(out.trim()).toBe('layers: ok');
  });
});
