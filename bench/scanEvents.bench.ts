/**
 * Events scale: the bytes the station core pushes to the page
 * (event frames on the web host's WebSocket, counted as the page receives them, by event name)
 * while BENCH_SCANS_QUEUED (1,000) scans are submitted at once and the label printer is off, so
 * every scan waits in the line and every label waits in the print queue. Counted from the first
 * scan to the last scan's outcome (plus half a second). The sandbox and the core run in their own
 * processes (harness/); the core's longest event-loop block meanwhile is read there. At 0 ms and
 * at 50 ms added to every service request (BENCH_EVENTS_LATENCIES=0 for a quick look).
 * BENCH_CORE_PROF=DIR profiles the core meanwhile and prints what took the time.
 */
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { showProfile } from './harness/profileTop';
import { startSandboxProcess } from './harness/sandboxProcess';

const SCANS = Number(process.env.BENCH_SCANS_QUEUED ?? 1000);
const LATENCIES = (process.env.BENCH_EVENTS_LATENCIES ?? '0,50').split(',').map(Number);

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = { scans: SCANS };
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  const cores: Core[] = [];
  try {
    const token = await sandboxToken(sb);
    for (const ms of LATENCIES) await insertShipments(sb, token, SCANS, `Q${ms}-`, 500);
    // The printer is off: connections refused, so the labels wait in the queue.
    await printer.offline();
    for (const ms of LATENCIES) {
      const core = await startCore({
        sandbox: sb,
        printerPort: printer.port,
        printWaitMs: 1000,
        profileDir: process.env.BENCH_CORE_PROF,
      });
      cores.push(core);
      const sync = await core.call('shipments.sync', {});
      if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}: ${sync.error?.message}`);
      await sb.latency(ms);
      const k = `at${ms}ms`;
      const kinds = new Map<string, number>();
      let outcomes = 0;
      let allOut!: () => void;
      const done = new Promise<void>((r) => (allOut = r));
      core.onEvent((name, payload) => {
        if (name !== 'scan.outcome') return;
        const kind = (payload as { kind: string }).kind;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (++outcomes === SCANS) allOut();
      });
      const before = new Map([...core.eventBytes].map(([n, e]) => [n, { ...e }]));
      await core.mark();
      // Every scan at once, as a fast scanner into a station whose line is busy.
      const acks = Array.from({ length: SCANS }, (_, i) => core.call('scan.submit', { code: `Q${ms}-${i + 1}` }));
      await Promise.all(acks);
      await Promise.race([
        done,
        new Promise((_, rej) =>
          setTimeout(() => rej(new Error(`${outcomes} of ${SCANS} outcomes in 20 min`)), 20 * 60_000),
        ),
      ]);
      await new Promise((r) => setTimeout(r, 500));
      const c = await core.measure();
      showProfile(`${SCANS} scans queued at ${ms} ms`, c.profile, c.longestTask);
      const stuck = [...kinds.keys()].filter((kind) => kind !== 'queued' && kind !== 'printer_down');
      if (stuck.length) throw new Error(`scans ended ${JSON.stringify(Object.fromEntries(kinds))}`);
      let total = 0;
      let frames = 0;
      for (const [name, e] of core.eventBytes) {
        const b = before.get(name) ?? { frames: 0, bytes: 0 };
        const bytes = e.bytes - b.bytes;
        if (!bytes) continue;
        total += bytes;
        frames += e.frames - b.frames;
        out[`${k}_bytes_${name}`] = bytes;
        out[`${k}_frames_${name}`] = e.frames - b.frames;
      }
      out[`${k}_bytes_to_page_total`] = total;
      out[`${k}_kb_to_page_total`] = total / 1024;
      out[`${k}_frames_to_page_total`] = frames;
      out[`${k}_bytes_per_scan`] = total / SCANS;
      out[`${k}_core_event_loop_max_block_ms`] = c.loopMaxMs;
      out[`${k}_core_event_loop_max_block_cpu_ms`] = c.loopMaxBlockCpuMs;
      out[`${k}_core_cpu_ms_per_scan`] = c.cpuMs / SCANS;
      await core.close();
      cores.pop();
    }
  } finally {
    for (const c of cores) await c.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
