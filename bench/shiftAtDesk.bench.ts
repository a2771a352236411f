/**
 * A shift at a desk, compressed: BENCH_SHIFT_SCANS (20,000) scans at a steady pace over
 * BENCH_SHIFT_MINUTES (40) minutes standing for 8 hours, the station core in its own process (as
 * harness/coreChild.ts), the sandbox in its own, a virtual ZPL printer at 6 ips sped up as much as
 * the shift is compressed (so it is as busy as at the desk: the same share of each scan's time
 * printing). Between the scans: the service out twice (sandbox faults on every path the station
 * calls: 503 answers for 10 minutes of the shift at 1.6 h, connections reset for 10 minutes at
 * 4.8 h), the printer switched off (offline, 5 minutes at 3.2 h) and out of paper (5 minutes at
 * 6.4 h). Sampled every BENCH_SHIFT_SAMPLES-th (80) of the shift: the core's RSS (/proc) and its
 * event loop's longest stall in the interval (and the core's own CPU time within its longest: on a
 * shared machine a stall also counts the time another process ran). At the end, nothing lost:
 * every scan's label printed exactly once (one label per scanned shipment at the printer, no
 * barcode twice) or, if the printer was switched off with it in its buffer, its job waiting for the
 * operator (uncertain or unconfirmed: the station cannot know and never prints it again by itself),
 * no journal entry unfinished, every other print job done (read from the stopped core's database). Whether RSS grows after
 * warm-up: the slope of a least-squares line through the second half's samples, in MB per hour of
 * the shift. The samples are drawn in docs/benchmarks/shiftAtDesk.svg (harness/shiftPlot.ts).
 * BENCH_CORE_PROF=DIR profiles the core in every sample's interval and prints what ran in the
 * interval with the longest stall (its task with the most CPU, harness/profileTop.ts). Each interval
 * also says whether the core's background shipment sync ran in it (its progress events), so a
 * stall is put on the sync or not.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core, type CoreFigures } from './harness/core';
import { repoRoot } from './harness/paths';
import { showProfile } from './harness/profileTop';
import { SERVICE_PATHS, startSandboxProcess, type SandboxProcess } from './harness/sandboxProcess';
import { shiftSvg, slope, type ShiftOutage, type ShiftSample } from './harness/shiftPlot';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_SHIFT_SCANS ?? 20_000);
const MINUTES = Number(process.env.BENCH_SHIFT_MINUTES ?? 40);
const SAMPLES = Number(process.env.BENCH_SHIFT_SAMPLES ?? 80);
const SHIFT_HOURS = 8;
/** Shift time per wall time. */
const COMPRESSION = (SHIFT_HOURS * 60) / MINUTES;
const PRINTER_IPS = 6;
/** After the last scan, how long (wall) the labels still waiting may take to come out. */
const DRAIN_MS = 10 * 60_000;

type Trouble = 'service_503' | 'service_reset' | 'printer_offline' | 'printer_paper_out';
const OUTAGES: { what: Trouble; atHour: number; shiftMinutes: number }[] = [
  { what: 'service_503', atHour: 1.6, shiftMinutes: 10 },
  { what: 'printer_offline', atHour: 3.2, shiftMinutes: 5 },
  { what: 'service_reset', atHour: 4.8, shiftMinutes: 10 },
  { what: 'printer_paper_out', atHour: 6.4, shiftMinutes: 5 },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function sandboxFaults(sb: SandboxProcess, fault: Record<string, unknown> | null): Promise<void> {
  const send = async (method: string, body?: unknown) => {
    const res = await fetch(`${sb.url}/_sandbox/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!res.ok) throw new Error(`sandbox faults ${method}: ${res.status} ${await res.text()}`);
  };
  await send('DELETE');
  if (fault) for (const p of SERVICE_PATHS) await send('POST', { path: p, ...fault });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The package barcode a label carries (the sandbox's labels: one Code 128 field). */
const barcodeOf = (zpl: string): string | null => /\^BC[^\n]*?\^FD([^^]*)\^FS/.exec(zpl)?.[1] ?? null;

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {
    scans: SCANS,
    shift_wall_minutes: MINUTES,
    compression: COMPRESSION,
    printer_ips_shift: PRINTER_IPS,
  };
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-shift-'));
  const sb = await startSandboxProcess('none');
  const printer = await startVirtualZplPrinter({ speedIps: PRINTER_IPS * COMPRESSION });
  let core: Core | null = null;
  try {
    const token = await sandboxToken(sb);
    await insertShipments(sb, token, SCANS, 'SH-', 500);
    core = await startCore({
      sandbox: sb,
      printerPort: printer.port,
      dataDir: work,
      profileDir: process.env.BENCH_CORE_PROF,
    });
    const sync = await core.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}: ${sync.error?.message}`);

    const wallMs = MINUTES * 60_000;
    const paceMs = wallMs / SCANS;
    const sampleMs = wallMs / SAMPLES;
    const hourOf = (ms: number) => (ms / wallMs) * SHIFT_HOURS;
    const samples: ShiftSample[] = [];
    const outages: ShiftOutage[] = [];
    const submitErrors: string[] = [];
    /** Labels in the printer's buffer when it was switched off: gone with it, as at a desk. */
    let bufferedAtSwitchOff = 0;
    const c = core;

    // The outages, each on its own timer from the shift's start.
    const t0 = performance.now();
    const troubles = OUTAGES.map(async (o) => {
      const from = (o.atHour / SHIFT_HOURS) * wallMs;
      const lasts = (o.shiftMinutes / 60 / SHIFT_HOURS) * wallMs;
      await sleep(from - (performance.now() - t0));
      const began = performance.now() - t0;
      if (o.what === 'service_503') await sandboxFaults(sb, { status: 503 });
      else if (o.what === 'service_reset') await sandboxFaults(sb, { reset: true });
      else if (o.what === 'printer_paper_out') printer.set({ paperOut: true });
      else {
        // Switched off between labels (what is in its buffer when it goes off is gone, as at a desk:
        // the station then asks the operator; this run measures the outage, not that question).
        const until = performance.now() + 5_000;
        while (printer.buffered() > 0 && performance.now() < until) await sleep(1);
        bufferedAtSwitchOff += printer.buffered();
        await printer.offline();
      }
      await sleep(began + lasts - (performance.now() - t0));
      if (o.what.startsWith('service')) await sandboxFaults(sb, null);
      else if (o.what === 'printer_paper_out') printer.set({ paperOut: false });
      else await printer.online();
      outages.push({
        what: o.what.replaceAll('_', ' '),
        fromHour: hourOf(began),
        toHour: hourOf(performance.now() - t0),
      });
    });

    // Samples: RSS now, and the longest stall since the last sample.
    let sampling = true;
    /** The intervals with the longest stall and with the most CPU in one stall so far (their profiles, with BENCH_CORE_PROF). */
    let worst: (CoreFigures & { hour: number }) | null = null;
    let worstCpu: (CoreFigures & { hour: number }) | null = null;
    /** The longest garbage collection pause of the shift (perf_hooks' gc entries in the core). */
    let gcLongestMs = 0;
    // The background shipment sync (every 5 minutes of the station's clock, wireShipments.ts):
    // its progress events mark the intervals it ran in.
    const syncFrames = () => c.eventBytes.get('shipments.syncProgress')?.frames ?? 0;
    let syncFramesBefore = syncFrames();
    await c.mark();
    const sampler = (async () => {
      for (let i = 1; sampling; i++) {
        await sleep(i * sampleMs - (performance.now() - t0));
        if (!sampling) break;
        const m = await c.measure();
        await c.mark();
        const hour = hourOf(performance.now() - t0);
        const syncedFrames = syncFrames();
        const syncing = syncedFrames > syncFramesBefore;
        syncFramesBefore = syncedFrames;
        gcLongestMs = Math.max(gcLongestMs, m.gc.longestMs);
        if (!worst || m.loopMaxMs > worst.loopMaxMs) worst = { ...m, hour };
        if (!worstCpu || m.loopMaxBlockCpuMs > worstCpu.loopMaxBlockCpuMs) worstCpu = { ...m, hour };
        samples.push({
          hour,
          rssMb: rssMb(c.pid),
          loopMaxMs: m.loopMaxMs,
          loopMaxCpuMs: m.loopMaxBlockCpuMs,
          labels: printer.printed().length,
          syncing,
        });
      }
    })();

    // The scans, at a steady pace (the next parcel does not wait for the last one's label).
    const submitted: Promise<unknown>[] = [];
    for (let i = 0; i < SCANS; i++) {
      await sleep(i * paceMs - (performance.now() - t0));
      submitted.push(
        c.call('scan.submit', { code: `SH-${i + 1}` }).catch((e: unknown) => submitErrors.push(String(e))),
      );
    }
    await Promise.all(submitted);
    await Promise.all(troubles);
    const until = performance.now() + DRAIN_MS;
    // Until every scan's label is out or waits for the operator (asked once a second).
    const forOperator = async () =>
      (await c.call('printing.queue.follow', { states: ['uncertain', 'unconfirmed'], limit: 500 })).jobs.length;
    for (let i = 0; performance.now() < until; i++) {
      if (printer.printed().length >= SCANS) break;
      if (i % 10 === 0 && printer.printed().length + (await forOperator()) >= SCANS) break;
      await sleep(100);
    }
    out['drain_after_last_scan_s'] = (performance.now() - t0 - (SCANS - 1) * paceMs) / 1000;
    // The journal's last steps after the last label (lazy commits, the scan log's outcome).
    await sleep(2_000);
    sampling = false;
    await sampler;
    for (const w of new Set([worst, worstCpu] as ((CoreFigures & { hour: number }) | null)[]))
      if (w)
        showProfile(
          `at ${w.hour.toFixed(2)} h: longest stall ${w.loopMaxMs.toFixed(0)} ms, ${w.loopMaxBlockCpuMs.toFixed(0)} ms of the loop's CPU in one`,
          w.profile,
          w.longestTask,
        );
    await c.close();
    core = null;

    // Nothing lost: at the printer...
    const labels = printer.printed();
    const barcodes = labels.map((l) => barcodeOf(l.zpl));
    const distinct = new Set(barcodes.filter((b): b is string => b !== null));
    out['labels_printed'] = labels.length;
    out['labels_distinct_barcodes'] = distinct.size;
    out['labels_printed_twice'] = labels.length - distinct.size;
    out['scans_without_label'] = SCANS - distinct.size;
    out['scan_submit_errors'] = submitErrors.length;
    // ...and in the station's database.
    const db = new Database(path.join(work, 'station', 'station.db'), { readonly: true });
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    out['journal_unfinished'] = n(`SELECT count(*) AS n FROM journal_entries WHERE step NOT IN ('queued', 'ended')`);
    out['journal_ended_not_printed'] = n(`SELECT count(*) AS n FROM journal_entries WHERE step = 'ended'`);
    out['jobs_not_done'] = n(`SELECT count(*) AS n FROM print_jobs WHERE state <> 'done'`);
    // A label the printer took and then lost (switched off with it in its buffer) cannot be told
    // from one that printed: the station asks the operator (an uncertain or unconfirmed job on the
    // desk) and never prints it again by itself. Such a scan is not lost: it waits for a person.
    out['printer_buffered_at_switch_off'] = bufferedAtSwitchOff;
    out['jobs_for_operator'] = n(`SELECT count(*) AS n FROM print_jobs WHERE state IN ('uncertain', 'unconfirmed')`);
    for (const r of db
      .prepare(
        `SELECT state, coalesce(reason_code, '') AS reason, count(*) AS n FROM print_jobs WHERE state <> 'done' GROUP BY 1, 2`,
      )
      .all() as { state: string; reason: string; n: number }[])
      process.stdout.write(`  jobs not done: ${r.n} ${r.state} ${r.reason}\n`);
    // Each such job's history and its scan's journal steps, for a look at what happened.
    for (const j of db
      .prepare(`SELECT id, title, scan_code, barcodes FROM print_jobs WHERE state <> 'done' ORDER BY id LIMIT 10`)
      .all() as { id: number; title: string; scan_code: string | null; barcodes: string }[]) {
      const atPrinter = (JSON.parse(j.barcodes) as string[]).filter((b) => distinct.has(b)).length;
      const events = db
        .prepare(
          `SELECT at, state, coalesce(reason_code, '') AS reason FROM print_job_events WHERE job_id = ? ORDER BY rowid`,
        )
        .all(j.id) as { at: string; state: string; reason: string }[];
      const steps = db
        .prepare(
          `SELECT s.at, s.step, coalesce(s.reason_code, '') AS reason FROM journal_steps s
           JOIN journal_jobs jj ON jj.entry_id = s.entry_id WHERE jj.job_id = ? ORDER BY s.rowid`,
        )
        .all(j.id) as { at: string; step: string; reason: string }[];
      process.stdout.write(
        `  job ${j.id} (${j.title}; ${atPrinter} of its labels at the printer): ${events.map((e) => `${e.at.slice(11, 23)} ${e.state} ${e.reason}`.trim()).join(' → ')}\n` +
          `    journal: ${steps.map((e) => `${e.at.slice(11, 23)} ${e.step} ${e.reason}`.trim()).join(' → ')}\n`,
      );
    }
    out['jobs_done_shipments'] = n(
      `SELECT count(DISTINCT label_ref) AS n FROM print_jobs WHERE state = 'done' AND label_ref LIKE 'zpl:%'`,
    );
    out['scan_log_not_printed'] = n(`SELECT count(*) AS n FROM scan_log WHERE outcome <> 'printed'`);
    db.close();
    // Every scan printed exactly once or waits for the operator's answer about its label.
    out['nothing_lost'] =
      out['scans_without_label'] <= out['jobs_for_operator'] &&
      out['labels_printed_twice'] === 0 &&
      out['journal_unfinished'] === 0 &&
      out['jobs_not_done'] === out['jobs_for_operator'] &&
      submitErrors.length === 0
        ? 1
        : 0;
    if (submitErrors.length) process.stdout.write(`  first submit error: ${submitErrors[0]}\n`);

    // Over time.
    const rss = samples.map((s) => s.rssMb);
    const half = samples.filter((s) => s.hour >= SHIFT_HOURS / 2);
    out['outages'] = outages.length;
    out['samples'] = samples.length;
    out['rss_start_mb'] = rss[0] ?? NaN;
    out['rss_max_mb'] = Math.max(...rss);
    out['rss_end_mb'] = rss.at(-1) ?? NaN;
    out['rss_second_half_slope_mb_per_shift_hour'] = slope(half.map((s) => ({ x: s.hour, y: s.rssMb })));
    out['event_loop_max_stall_ms'] = Math.max(...samples.map((s) => s.loopMaxMs));
    const longest = samples.reduce((a, b) => (b.loopMaxMs > a.loopMaxMs ? b : a));
    out['event_loop_max_stall_at_shift_hour'] = longest.hour;
    out['event_loop_interval_max_stall_p50_ms'] = summarize(samples.map((s) => s.loopMaxMs)).p50;
    // Where the stalls over the line are: in the intervals the background shipment sync ran in, or not.
    const over = samples.filter((s) => s.loopMaxMs > 20);
    out['event_loop_stalls_over_20ms'] = over.length;
    out['event_loop_stalls_over_20ms_while_syncing'] = over.filter((s) => s.syncing).length;
    out['intervals_syncing'] = samples.filter((s) => s.syncing).length;
    out['event_loop_max_stall_while_syncing'] = longest.syncing ? 1 : 0;
    out['event_loop_max_stall_not_syncing_ms'] = Math.max(
      0,
      ...samples.filter((s) => !s.syncing).map((s) => s.loopMaxMs),
    );
    // A stall is counted whole also when the machine ran another process meanwhile (2 shared cores)
    // or the loop waited for a disk sync: the most CPU time the loop itself used within one stall tells its own part.
    out['event_loop_max_stall_core_cpu_ms'] = Math.max(...samples.map((s) => s.loopMaxCpuMs));
    // The collector's part: its longest pause in the interval of the longest stall (a major one is
    // a mark-compact), and over the whole shift.
    const stalled = worst as (CoreFigures & { hour: number }) | null; // set by the sampler above
    if (stalled) {
      out['event_loop_max_stall_interval_gc_longest_ms'] = stalled.gc.longestMs;
      out['event_loop_max_stall_interval_gc_major_ms'] = stalled.gc.majorMs;
    }
    out['gc_longest_pause_ms'] = gcLongestMs;

    const dir = path.join(repoRoot, 'docs', 'benchmarks');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'shiftAtDesk.svg'),
      shiftSvg({
        title: `A shift at a desk: ${SCANS} scans over ${SHIFT_HOURS} h (run in ${MINUTES} min), printer ${PRINTER_IPS} ips`,
        // The drain after the last scan is drawn too (its samples come after the 8 hours).
        hours: Math.ceil(Math.max(SHIFT_HOURS, ...samples.map((s) => s.hour))),
        samples,
        outages: outages.sort((a, b) => a.fromHour - b.fromHour),
      }),
    );
  } finally {
    await core?.close();
    await printer.close();
    await sb.close();
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}
