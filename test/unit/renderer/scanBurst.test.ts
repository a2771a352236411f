/** The scanner-or-person decision over keystroke times (renderer/src/scan/scanBurst.ts). */
import { describe, expect, it } from 'vitest';
import { scanOf, scansIn, type BurstRules } from '../../../renderer/src/scan/scanBurst';

const rules: BurstRules = { keyGapMs: 35, minLength: 3 };
/** `text` then Enter, one key every `gap` ms from `start`. */
const typed = (text: string, gap: number, start = 0) => [...text, '\n'].map((key, i) => ({ key, at: start + i * gap }));

describe('scan bursts', () => {
  it('a scanner (a key every 5 ms, then Enter) is a scan', () => {
    expect(scansIn(typed('ORD-1001', 5), rules)).toEqual(['ORD-1001']);
  });

  it('a person (a key every 120 ms) is never a scan, nor a fast typist at 80 ms', () => {
    expect(scansIn(typed('ORD-1001', 120), rules)).toEqual([]);
    expect(scansIn(typed('ORD-1001', 80), rules)).toEqual([]);
  });

  it('the typical gap decides: a median of exactly the threshold still counts, one ms more does not', () => {
    expect(scansIn(typed('ABCD', 35), rules)).toEqual(['ABCD']);
    expect(scansIn(typed('ABCD', 36), rules)).toEqual([]);
  });

  it('a whole burst is judged: one late key inside a scan (a busy machine) does not spoil it', () => {
    const keys = typed('ORD-1003', 5);
    for (const k of keys.slice(4)) k.at += 80; // one gap of 85 ms before "1003"
    expect(scansIn(keys, rules)).toEqual(['ORD-1003']);
  });

  it('a person rolling two keys fast inside slow typing is no scan', () => {
    const at = [0, 30, 150, 270, 300, 420];
    expect(
      scansIn([...'Brno '].map((key, i) => ({ key, at: at[i]! })).concat({ key: '\n', at: at[5]! }), rules),
    ).toEqual([]);
  });

  it('hand-typed text before a scan is not part of it', () => {
    const keys = [...typed('Nov', 150).slice(0, 3), ...typed('ORD-1002', 4, 1000)];
    expect(scansIn(keys, rules)).toEqual(['ORD-1002']);
  });

  it('an Enter a person presses long after a fast burst is no scan', () => {
    const keys = typed('ORD-1', 5);
    keys[keys.length - 1]!.at += 500;
    expect(scansIn(keys, rules)).toEqual([]);
  });

  it('a fast pair of keys from a person (key rollover) is too short for a scan', () => {
    expect(scansIn(typed('ok', 10), rules)).toEqual([]);
  });

  it('a long pause inside a code splits it: the part after the pause alone is judged', () => {
    const keys = typed('ORD-1003', 5);
    for (const k of keys.slice(4)) k.at += 200; // pause before "1003"
    expect(scansIn(keys, rules)).toEqual(['1003']);
  });

  it("a person's key just before the scanner's first is not part of the code", () => {
    const keys = [{ key: 'o', at: 0 }, ...typed('ORD-1008', 5, 90)];
    expect(scansIn(keys, rules)).toEqual(['ORD-1008']);
    expect(
      scanOf(
        keys.slice(0, -1).map((k) => ({ char: k.key, at: k.at })),
        keys[keys.length - 1]!.at,
        rules,
      )?.from,
    ).toBe(1);
  });

  it('two scans in a row are two scans', () => {
    expect(scansIn([...typed('ORD-1001', 3), ...typed('ORD-1005', 3, 300)], rules)).toEqual(['ORD-1001', 'ORD-1005']);
  });

  it('the threshold comes from the settings', () => {
    expect(scansIn(typed('ORD-1001', 50), { keyGapMs: 60, minLength: 3 })).toEqual(['ORD-1001']);
    expect(scansIn(typed('ORD-1001', 50), { keyGapMs: 20, minLength: 3 })).toEqual([]);
  });

  it('a clock that goes backwards starts a new burst instead of joining one', () => {
    expect(
      scansIn(
        [
          { key: 'A', at: 100 },
          { key: 'B', at: 90 },
          { key: 'C', at: 95 },
          { key: '\n', at: 96 },
        ],
        rules,
      ),
    ).toEqual([]);
  });
});
