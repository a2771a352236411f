/**
 * The rules of editing a parcel's packages at the desk (shared/packages/deskPackages.ts): what a
 * worker adding, splitting, removing and typing boxes may do, and what keeps a list from being sent.
 */
import { describe, expect, it } from 'vitest';
import {
  addPackage,
  emptyPackage,
  MAX_DESK_PACKAGES,
  problemsOf,
  readWeight,
  removePackage,
  setSide,
  setWeight,
  splitInto,
  type DeskPackage,
} from '../../../shared/packages/deskPackages';

const box = (weight: string | null, sides: [number, number, number] | null = null): DeskPackage => ({
  weight,
  length: sides?.[0] ?? null,
  width: sides?.[1] ?? null,
  height: sides?.[2] ?? null,
});

describe('package edits at the desk', () => {
  it('adds an empty box to weigh, up to the most a parcel takes', () => {
    const r = addPackage([box('2.3')]);
    expect(r).toEqual({ ok: true, packages: [box('2.3'), box(null)] });
    const full = Array.from({ length: MAX_DESK_PACKAGES }, () => box('1'));
    expect(addPackage(full)).toEqual({ ok: false, rule: 'too_many' });
  });

  it('splits the parcel into N empty boxes, guessing no weight; N from 2', () => {
    expect(splitInto(3)).toEqual({ ok: true, packages: [box(null), box(null), box(null)] });
    expect(splitInto(1)).toEqual({ ok: false, rule: 'split_count' });
    expect(splitInto(2.5)).toEqual({ ok: false, rule: 'split_count' });
    expect(splitInto(MAX_DESK_PACKAGES + 1)).toEqual({ ok: false, rule: 'split_count' });
  });

  it('removes a box but never the last one', () => {
    expect(removePackage([box('1'), box('2')], 0)).toEqual({ ok: true, packages: [box('2')] });
    expect(removePackage([box('1')], 0)).toEqual({ ok: false, rule: 'last_package' });
  });

  it('reads a typed weight with a decimal comma or point, above zero, at most grams', () => {
    expect(readWeight('2,5')).toBe('2.5');
    expect(readWeight(' 12 ')).toBe('12');
    expect(readWeight('0,125')).toBe('0.125');
    expect(readWeight('0,1255')).toBeNull();
    expect(readWeight('0')).toBeNull();
    expect(readWeight('-1')).toBeNull();
    expect(readWeight('dva')).toBeNull();
    expect(setWeight([emptyPackage()], 0, '1,4')).toEqual({ ok: true, packages: [box('1.4')] });
    expect(setWeight([emptyPackage()], 0, '1,4 kg')).toEqual({ ok: false, rule: 'weight_invalid' });
  });

  it('takes sides in whole cm; an empty field clears a side', () => {
    const r = setSide([box('1', [10, 20, 30])], 0, 'width', '');
    expect(r).toEqual({ ok: true, packages: [{ weight: '1', length: 10, width: null, height: 30 }] });
    expect(setSide([box('1')], 0, 'length', '12,5')).toEqual({ ok: false, rule: 'side_invalid' });
    expect(setSide([box('1')], 0, 'length', '0')).toEqual({ ok: false, rule: 'side_invalid' });
  });

  it('a list goes only when every box has a weight, and all three sides where the carrier asks', () => {
    expect(problemsOf([box('1'), box(null)], false)).toEqual([{ index: 1, rule: 'weight_missing' }]);
    expect(problemsOf([box('1'), box('2', [10, 10, 10])], false)).toEqual([]);
    expect(problemsOf([box('1'), box('2', [10, 10, 10])], true)).toEqual([{ index: 0, rule: 'sides_missing' }]);
    expect(problemsOf([{ weight: '1', length: 10, width: null, height: 10 }], true)).toEqual([
      { index: 0, rule: 'sides_missing' },
    ]);
    expect(problemsOf([], false)).toEqual([{ index: 0, rule: 'last_package' }]);
    expect(problemsOf([box('1,5')], false)).toEqual([{ index: 0, rule: 'weight_invalid' }]);
  });
});
