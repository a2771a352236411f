import { describe, expect, test } from 'vitest';
import { catalogue, demoPlaces } from '../../domain';

const carrier = (code: string) => catalogue.carriers.find((c) => c.code === code)!;

describe('spec "GET /api/v3/deliveries/zpl": ZPL sizes per carrier', () => {
  test('five ZPL carriers with the allowed sizes and defaults of the spec', () => {
    const zpl = catalogue.carriers.filter((c) => c.zpl).map((c) => [c.code, c.zpl!.sizes, c.zpl!.default]);
    expect(zpl).toEqual([
      ['NP', ['10x17'], '10x17'], // national postal operator
      ['PPR', ['10x5', '10x17'], '10x5'], // parcel courier
      ['RGX', ['10x15'], '10x15'], // regional courier
      ['BOX', ['10x17'], '10x17'], // pick-up-point operator
      ['SHP', ['10x17'], '10x17'], // pick-up-point operator
    ]);
  });
  test('at least one carrier has no ZPL', () => {
    expect(catalogue.carriers.filter((c) => !c.zpl).map((c) => c.code)).toEqual(['CCR']);
  });
});

describe('spec "Party type rules" 5 in the catalogue', () => {
  test('a carrier without the collection distinction has no back or direct services at all', () => {
    const shp = carrier('SHP');
    expect(shp.distinguishesCollection).toBe(false);
    expect(shp.extraServices.map((s) => s.code)).not.toContain('direct_delivery');
    expect(shp.extraServices.map((s) => s.code)).not.toContain('back_delivery');
    expect(demoPlaces().some((p) => 'SHP' in p.collectionTypes)).toBe(false);
  });
});

describe('catalogue consistency', () => {
  test('every service a delivery type offers exists at its carrier; bans name known codes and are symmetric', () => {
    for (const c of catalogue.carriers) {
      const codes = c.extraServices.map((s) => s.code);
      for (const t of c.deliveryTypes) for (const s of t.extraServices) expect(codes, `${t.code} ${s}`).toContain(s);
      for (const s of c.extraServices) {
        for (const b of s.bans) {
          const other = c.extraServices.find((x) => x.code === b);
          if (other) expect(other.bans, `${c.code} ${s.code}/${b}`).toContain(s.code);
        }
      }
    }
  });
  test('weight bands ascend and cover the heaviest package of each type', () => {
    for (const c of catalogue.carriers) {
      for (const t of c.deliveryTypes) {
        const limits = t.bands.map((b) => b.upToGrams);
        expect([...limits].sort((a, b) => a - b)).toEqual(limits);
        expect(limits.at(-1)).toBe(t.maxWeightGrams);
      }
    }
  });
  test("the spec's extra service codes all appear in the catalogue", () => {
    const all = new Set(catalogue.carriers.flatMap((c) => c.extraServices.map((s) => s.code)));
    for (const code of [
      'email_advice_unload',
      'sms_advice_unload',
      'cod',
      'direct_delivery',
      'back_delivery',
      'guaranteed_24',
      'addressee_only',
      'day_definite',
      'sms_service',
    ]) {
      expect(all.has(code), code).toBe(true);
    }
  });
  test('every text of the catalogue exists in English and Czech', () => {
    const walk = (v: unknown, path: string): void => {
      if (v && typeof v === 'object' && !(v instanceof RegExp)) {
        const o = v as Record<string, unknown>;
        if ('en' in o || 'cs' in o) {
          expect(typeof o.en === 'string' && o.en.length > 0, `${path}.en`).toBe(true);
          expect(typeof o.cs === 'string' && o.cs.length > 0, `${path}.cs`).toBe(true);
          return;
        }
        for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
      }
    };
    walk(catalogue, 'catalogue');
  });
});

test('demo seed: active and inactive places, with and without collection types', () => {
  const p = demoPlaces();
  expect(p.some((x) => !x.active)).toBe(true);
  expect(p.some((x) => x.active && Object.keys(x.collectionTypes).length > 0)).toBe(true);
  expect(p.some((x) => x.active && Object.keys(x.collectionTypes).length === 0)).toBe(true);
});
