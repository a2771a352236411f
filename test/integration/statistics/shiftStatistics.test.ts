/**
 * The desk statistics of a scripted shift (test/support/scriptedShift.ts: 100 scans by two
 * operators at known times, a refusal, an error, reprints with reasons) in a real station database,
 * read through the station's RPC handlers; the CSV read back with csv-parse. Every expected figure
 * is worked out by hand from the script in the comments beside it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatisticsHandlers } from '../../../electron/statistics/statisticsHandlers';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createStatisticsRepo } from '../../../electron/store/statisticsRepo';
import { statisticsCsvColumns, statisticsRange, type Statistics } from '../../../shared/contract/statistics';
import { writeScriptedShift } from '../../support/scriptedShift';

const DAY = '2026-03-02';
const day = new Date(2026, 2, 2);

let db: Db;
let ids: { alena: number; borek: number };
let handlers: ReturnType<typeof createStatisticsHandlers>;
let figures: Statistics;

const labels = {
  columns: Object.fromEntries(statisticsCsvColumns.map((c) => [c, `Sloupec ${c}`])) as Record<
    (typeof statisticsCsvColumns)[number],
    string
  >,
  nobody: 'Nikdo nepřihlášen',
  everyone: 'Všichni',
  everyCarrier: 'Všichni dopravci',
};

beforeAll(async () => {
  db = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'stats-')), 'station.db'));
  ids = writeScriptedShift(db, day);
  handlers = createStatisticsHandlers(createStatisticsRepo(db));
  figures = await handlers['statistics.get'](statisticsRange.parse({ from: DAY, to: DAY }));
});
afterAll(() => db.close());

const steps = (scope: Statistics['steps'][number]['scope'], carrier: string | null) =>
  Object.fromEntries(
    figures.steps
      .filter((s) => s.scope === scope && s.carrier === carrier)
      .map((s) => [s.step, { count: s.count, p50: s.p50Ms / 1000, p95: s.p95Ms / 1000 }]),
  );

describe('a shift of 100 scans by two operators', () => {
  it('counts each operator’s parcels, labels, reprints by reason, refusals and errors, and nobody’s reprint', () => {
    const alena = figures.operators.find((o) => o.scope === ids.alena)!;
    const borek = figures.operators.find((o) => o.scope === ids.borek)!;
    const nobody = figures.operators.find((o) => o.scope === 'nobody')!;
    expect(figures.operators.map((o) => o.name)).toEqual(['Alena Dvořáková', 'Bořek Šťastný', null]);
    // Alena: 60 scans, scan 15 refused → 59 closed, 59 printed with one label each.
    expect(alena).toMatchObject({
      parcels: 60,
      closed: 59,
      printed: 59,
      labels: 59,
      reprints: { damaged: 1, lost: 1, wrong_printer: 0, other: 0 },
      refusals: 1,
      errors: 0,
    });
    // Bořek: 40 scans all closed, scan 5 got no labels → 39 printed, 1 error.
    expect(borek).toMatchObject({
      parcels: 40,
      closed: 40,
      printed: 39,
      labels: 39,
      reprints: { damaged: 0, lost: 0, wrong_printer: 1, other: 0 },
      refusals: 0,
      errors: 1,
    });
    expect(nobody).toMatchObject({
      parcels: 0,
      closed: 0,
      reprints: { damaged: 0, lost: 0, wrong_printer: 0, other: 1 },
      perHour: null,
    });
    expect(figures.total).toMatchObject({
      parcels: 100,
      closed: 99,
      printed: 98,
      labels: 98,
      reprints: { damaged: 1, lost: 1, wrong_printer: 1, other: 1 },
      refusals: 1,
      errors: 1,
    });
  });

  it('gives parcels per hour from the first scan to the last close', () => {
    // Alena: 08:00:00 → last close 08:59:00 + 10 s = 3550 s; 59 closed / (3550/3600 h) = 59.83.
    expect(figures.operators.find((o) => o.scope === ids.alena)!.perHour).toBeCloseTo((59 * 3600) / 3550, 6);
    // Bořek: 10:00:00 → 10:58:30 + 2 s = 3512 s; 40 / (3512/3600) = 41.00.
    expect(figures.operators.find((o) => o.scope === ids.borek)!.perHour).toBeCloseTo((40 * 3600) / 3512, 6);
    // Everyone: 08:00:00 → 10:58:32 = 10712 s; 99 / (10712/3600) = 33.27.
    expect(figures.total.perHour).toBeCloseTo((99 * 3600) / 10712, 6);
  });

  it('puts each close in its local hour, per operator', () => {
    const byHour = Object.fromEntries(
      figures.hours.map((h) => [h.hour, Object.fromEntries(h.closed.map((c) => [String(c.scope), c.closed]))]),
    );
    expect(byHour[8]).toEqual({ [ids.alena]: 59, [ids.borek]: 0, nobody: 0 });
    expect(byHour[10]).toEqual({ [ids.alena]: 0, [ids.borek]: 40, nobody: 0 });
    expect(
      figures.hours.filter((h) => ![8, 10].includes(h.hour)).flatMap((h) => h.closed.filter((c) => c.closed)),
    ).toEqual([]);
  });

  it('gives p50 and p95 (nearest rank) of each step per operator and carrier', () => {
    // Alena PPL (even i): scan → closed 1,3,5,7,9 s six times each (30): rank 15 → 5, rank ⌈28.5⌉ = 29 → 9.
    // closed → queued 0.5 s, queued → printed 3 s for all.
    expect(steps(ids.alena, 'PPL')).toEqual({
      scan_to_closed: { count: 30, p50: 5, p95: 9 },
      closed_to_queued: { count: 30, p50: 0.5, p95: 0.5 },
      queued_to_printed: { count: 30, p50: 3, p95: 3 },
    });
    // Alena DPD (odd i, scan 15 with 6 s refused): 2,4,8,10 ×6 and 6 ×5 (29): rank 15 → 6 (ranks 13–17),
    // rank ⌈27.55⌉ = 28 → 10 (ranks 24–29).
    expect(steps(ids.alena, 'DPD')).toEqual({
      scan_to_closed: { count: 29, p50: 6, p95: 10 },
      closed_to_queued: { count: 29, p50: 1.5, p95: 1.5 },
      queued_to_printed: { count: 29, p50: 3, p95: 3 },
    });
    // Alena, every carrier: 1..10 s six times each but 6 five times (59): rank 30 → 5 (ranks 25–30),
    // rank ⌈56.05⌉ = 57 → 10 (ranks 54–59); closed → queued 30 × 0.5 then 29 × 1.5: rank 30 → 0.5, rank 57 → 1.5.
    expect(steps(ids.alena, null)).toEqual({
      scan_to_closed: { count: 59, p50: 5, p95: 10 },
      closed_to_queued: { count: 59, p50: 0.5, p95: 1.5 },
      queued_to_printed: { count: 59, p50: 3, p95: 3 },
    });
    // Bořek: scan → closed 2 s (40); closed → queued 1 s (39: scan 5 never queued); printed PPL 2 s (29), DPD 5 s (10).
    expect(steps(ids.borek, 'PPL')).toEqual({
      scan_to_closed: { count: 30, p50: 2, p95: 2 },
      closed_to_queued: { count: 29, p50: 1, p95: 1 },
      queued_to_printed: { count: 29, p50: 2, p95: 2 },
    });
    // Every carrier: 29 × 2 s then 10 × 5 s: rank ⌈19.5⌉ = 20 → 2, rank ⌈37.05⌉ = 38 → 5.
    expect(steps(ids.borek, null)).toEqual({
      scan_to_closed: { count: 40, p50: 2, p95: 2 },
      closed_to_queued: { count: 39, p50: 1, p95: 1 },
      queued_to_printed: { count: 39, p50: 2, p95: 5 },
    });
    // Everyone, scan → closed: Alena's 59 and Bořek's 40 × 2 s (99): 1 s ranks 1–6, 2 s ranks 7–52 → rank 50 → 2;
    // rank ⌈94.05⌉ = 95 → 10 s (ranks 94–99).
    expect(steps('everyone', null).scan_to_closed).toEqual({ count: 99, p50: 2, p95: 10 });
    // Nobody scanned: no step times for nobody.
    expect(figures.steps.filter((s) => s.scope === 'nobody')).toEqual([]);
  });

  it('an empty day has no figures, and a day before the shift none of it', async () => {
    const before = await handlers['statistics.get'](statisticsRange.parse({ from: '2026-03-01', to: '2026-03-01' }));
    expect(before.operators).toEqual([]);
    expect(before.total).toMatchObject({ parcels: 0, closed: 0, labels: 0, perHour: null });
    expect(before.steps).toEqual([]);
  });

  it.each([
    ['en', ',', '.'],
    ['cs', ';', ','],
  ] as const)(
    '%s: the CSV, read back, has the same figures (BOM, keys, the header in the language, decimals)',
    async (language, delimiter, point) => {
      const { csv, fileName } = await handlers['statistics.csv']({ range: { from: DAY, to: DAY }, language, labels });
      expect(fileName).toBe('statistics-2026-03-02.csv');
      expect(csv.startsWith('\uFEFF')).toBe(true);
      const rows = parse<Record<string, string>>(csv, { bom: true, delimiter, columns: true });
      // Row 1 gave the keys; row 2 is the header in the UI language.
      expect(rows[0]).toEqual(Object.fromEntries(statisticsCsvColumns.map((c) => [c, `Sloupec ${c}`])));
      const data = rows.slice(1);
      const op = (name: string) => data.find((r) => r.section === 'operator' && r.operator === name)!;
      expect(op('Alena Dvořáková')).toMatchObject({
        operator_id: String(ids.alena),
        parcels: '60',
        closed: '59',
        printed: '59',
        labels: '59',
        reprints_damaged: '1',
        reprints_lost: '1',
        reprints_wrong_printer: '0',
        reprints_other: '0',
        refusals: '1',
        errors: '0',
        // 59 × 3600 / 3550 = 59.83 → one decimal.
        parcels_per_hour: `59${point}8`,
      });
      expect(op('Bořek Šťastný')).toMatchObject({
        parcels: '40',
        closed: '40',
        printed: '39',
        errors: '1',
        parcels_per_hour: `41${point}0`,
      });
      expect(op('Nikdo nepřihlášen')).toMatchObject({ operator_id: '', reprints_other: '1', parcels_per_hour: '' });
      expect(data.find((r) => r.section === 'total')).toMatchObject({
        operator: 'Všichni',
        parcels: '100',
        closed: '99',
        printed: '98',
        refusals: '1',
        errors: '1',
        parcels_per_hour: `33${point}3`,
      });
      const hour = (h: string, who: string) =>
        data.find((r) => r.section === 'hour' && r.hour === h && r.operator === who)!;
      expect(hour('8', 'Alena Dvořáková').closed).toBe('59');
      expect(hour('10', 'Bořek Šťastný').closed).toBe('40');
      expect(hour('10', 'Všichni').closed).toBe('40');
      const step = (who: string, carrier: string, s: string) =>
        data.find((r) => r.section === 'step' && r.operator === who && r.carrier === carrier && r.step === s)!;
      expect(step('Alena Dvořáková', 'DPD', 'scan_to_closed')).toMatchObject({
        count: '29',
        p50_s: `6${point}0`,
        p95_s: `10${point}0`,
      });
      expect(step('Alena Dvořáková', 'PPL', 'closed_to_queued')).toMatchObject({
        p50_s: `0${point}5`,
        p95_s: `0${point}5`,
      });
      expect(step('Bořek Šťastný', 'Všichni dopravci', 'queued_to_printed')).toMatchObject({
        count: '39',
        p50_s: `2${point}0`,
        p95_s: `5${point}0`,
      });
    },
  );
});

describe('the range the core accepts', () => {
  it('refuses a range longer than 31 days, backwards, or a day that does not exist', () => {
    expect(statisticsRange.safeParse({ from: '2026-03-01', to: '2026-03-31' }).success).toBe(true);
    expect(statisticsRange.safeParse({ from: '2026-03-01', to: '2026-04-01' }).success).toBe(false);
    expect(statisticsRange.safeParse({ from: '2026-03-02', to: '2026-03-01' }).success).toBe(false);
    expect(statisticsRange.safeParse({ from: '2026-02-30', to: '2026-03-01' }).success).toBe(false);
    expect(statisticsRange.safeParse({ from: '2026-03-01', to: '2026-03-01', extra: 1 }).success).toBe(false);
  });
});
