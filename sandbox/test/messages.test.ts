/**
 * Spec "Common conventions" 9: every message the sandbox writes exists in English and Czech.
 * Imports every module of sandbox/ (except the CLI) and checks every {en, cs} it exports,
 * however deep (message catalogues, the carrier catalogue, scope descriptions).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'test' ? [] : modules(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') && full !== path.join(root, 'cli.ts') ? [full] : [];
  });
}

function isMsg(v: unknown): v is { en: unknown; cs: unknown } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'en' in v && 'cs' in v;
}

function collect(
  value: unknown,
  where: string,
  out: Array<{ where: string; en: unknown; cs: unknown }>,
  seen: Set<unknown>,
): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (isMsg(value)) return void out.push({ where, en: value.en, cs: value.cs });
  for (const [k, v] of Object.entries(value)) collect(v, `${where}.${k}`, out, seen);
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('Common conventions 9: the English and Czech catalogues are complete', () => {
  it('Common conventions 9: every Msg in the sandbox has a non-empty en and cs with the same placeholders', async () => {
    const found: Array<{ where: string; en: unknown; cs: unknown }> = [];
    const seen = new Set<unknown>();
    for (const file of modules(root)) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod))
        collect(value, `${path.relative(root, file)}:${name}`, found, seen);
    }
    expect(found.length).toBeGreaterThan(100);
    const bad = found.filter(
      (m) =>
        typeof m.en !== 'string' ||
        typeof m.cs !== 'string' ||
        m.en.trim() === '' ||
        m.cs.trim() === '' ||
        placeholders(m.en).join() !== placeholders(m.cs).join(),
    );
    expect(bad).toEqual([]);
  });
});
