/**
 * The station core in its own process for the benchmarks: createStation + the web host
 * (the page's WebSocket RPC, which the benchmark drives), logged in to the sandbox process, with
 * one ZPL printer on TCP (the benchmark's virtual printer) that every carrier is routed to, as
 * Settings > Printing would set it. Only this process's CPU time and event loop are measured.
 *
 * Environment: BENCH_DATA_DIR, BENCH_SANDBOX (JSON {url, demo}), BENCH_PRINTER_PORT,
 * BENCH_PRINT_WAIT_MS (default 8000); BENCH_HOST_STATUS=0 sets the printer up without host
 * status (a new printer's default: a raw port, its labels proved by its close); BENCH_CORE_PROF=DIR
 * profiles (node:inspector) from each `mark` to the next `measure` into
 * DIR/core-<pid>-<n>.cpuprofile; BENCH_SYNCHRONOUS=FULL|NORMAL|OFF
 * replaces every `PRAGMA synchronous = ...` the station runs, and BENCH_NO_WAL_SYNC=1 makes the
 * -wal syncs it awaits before a side effect do nothing (the journal's disk syncs compared).
 * Protocol, one line each way:
 *   stdout `ready {"port","token","origin"}`
 *   stdin  `mark`     -> CPU time and event-loop delay start afresh: stdout `marked {"at"}` (epoch seconds)
 *   stdin  `measure`  -> stdout `measured {"at","cpuUserMs","cpuSystemMs","cpuMs","loopMaxMs","loopP99Ms","profile","longestTask","threadsCpuMs","gc","io"}`
 *   stdin  `quit`     -> station closed, exit 0
 */
import { createHook } from 'node:async_hooks';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import {
  constants as perfConstants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
  type IntervalHistogram,
} from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { forceSynchronous, skipWalSyncs, stderrLogger } from '../../test/support/childStation';
import { startWebHost } from '../../electron/host/webHost';
import { createStation } from '../../electron/station';
import { repoRoot } from './paths';

const BENCH_PRINTER_ID = 'bench-zpl';

forceSynchronous(process.env.BENCH_SYNCHRONOUS, 'coreChild');
skipWalSyncs(process.env.BENCH_NO_WAL_SYNC === '1');

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`coreChild: ${name} is not set`);
  return v;
};
const say = (line: string) => process.stdout.write(`${line}\n`);
const epoch = () => (performance.timeOrigin + performance.now()) / 1000;
const log = stderrLogger;

/**
 * BENCH_CORE_PROF_FROM_START=1 (with BENCH_CORE_PROF): the profile starts with the process instead
 * of at `mark`, and the first `measure` ends it. Starting the profiler at `mark` takes tens of ms,
 * enough to let start-up work end before a measured span it would otherwise fall into.
 */
const earlySession =
  process.env.BENCH_CORE_PROF && process.env.BENCH_CORE_PROF_FROM_START === '1' ? new Session() : null;
if (earlySession) {
  earlySession.connect();
  await earlySession.post('Profiler.enable');
  await earlySession.post('Profiler.start');
}
let profilingSinceStart = earlySession !== null;

const station = await createStation({
  dataDir: env('BENCH_DATA_DIR'),
  host: 'web',
  version: '0.0.0-bench',
  log,
  sandbox: JSON.parse(env('BENCH_SANDBOX')) as Parameters<typeof createStation>[0]['sandbox'],
  secrets: createMemorySecretStore(),
  printWaitMs: Number(process.env.BENCH_PRINT_WAIT_MS ?? 8000),
  healthIntervalMs: 60_000,
});
/**
 * BENCH_FTS=automerge=0,crisismerge=1000 (an experiment): the cache's text index's merge settings
 * (FTS5's own configuration options, stored in the file), set from a connection of its own once
 * the station is up, to tell the index's merges apart from the rest of a cache write.
 */
if (process.env.BENCH_FTS) {
  const db = new Database(path.join(env('BENCH_DATA_DIR'), 'station.db'));
  for (const option of process.env.BENCH_FTS.split(',')) {
    const [name, value] = option.split('=');
    db.prepare('INSERT INTO shipment_search (shipment_search, rank) VALUES (?, ?)').run(name, BigInt(value!)); // an integer: FTS5 refuses a real
  }
  db.close();
}
const call = async (method: string, params: unknown): Promise<unknown> => {
  const r = await station.rpc.dispatch(method, params);
  if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
  return r.value;
};
await call('printing.printers.save', {
  id: BENCH_PRINTER_ID,
  name: 'Bench label printer',
  connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: Number(env('BENCH_PRINTER_PORT')) },
  settings: {
    dpi: 300,
    darkness: 0,
    offsetX: 0,
    offsetY: 0,
    rotate180: false,
    copies: 1,
    hostStatus: process.env.BENCH_HOST_STATUS !== '0',
    media: '',
    fitToPage: true,
  },
});
await call('printing.routes.set', {
  carriers: {},
  defaultRoute: { format: 'zpl', printerId: BENCH_PRINTER_ID },
  protocolPrinterId: null,
});
const host = await startWebHost({
  rpc: station.rpc,
  log,
  staticDir: process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer'),
});

let cpu = process.cpuUsage();
let loop: IntervalHistogram | null = null;

/**
 * CPU time (ms) of the thread that calls it, the event loop's: the kernel's run time of this thread
 * (/proc/thread-self/schedstat, ns). process.cpuUsage() counts every thread of the process: the
 * checkpointer's worker (store/checkpointer.ts), the garbage collector's helpers and libuv's pool
 * ran while the loop waited on a disk sync, and their time read as the loop's own. Where the file
 * cannot be read (another system), the process's time, as before.
 */
function loopCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/**
 * The CPU time the core's event loop used within one stall of it, at most: a 5 ms timer notes, for
 * each gap between its ticks, the CPU time the loop's thread used in it. The histogram above counts a
 * stall whole, also when the machine did not run the process (another process on the 2 cores,
 * the virtual machine's host); this counts the core's running part of it. A disk sync waited for
 * inside a commit is in the histogram only (no CPU time): the two are reported side by side.
 */
function createStallWatch() {
  let lastAt = performance.now();
  let lastCpu = loopCpuMs();
  let busyMaxMs = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    const cpu = loopCpuMs();
    busyMaxMs = Math.max(busyMaxMs, Math.min(at - lastAt, cpu - lastCpu));
    lastAt = at;
    lastCpu = cpu;
  }, 5);
  return {
    stop(): number {
      clearInterval(timer);
      return busyMaxMs;
    },
  };
}
let stalls: ReturnType<typeof createStallWatch> | null = null;

/**
 * With a profile: the task of the loop that used the most CPU time (one callback of a timer, an
 * immediate or a socket, with the promise reactions run after it, up to the next such callback),
 * its span in the profile's clock (monotonic µs), so profileTop.ts can say what ran in it. By CPU
 * time, not length: on a loaded machine the longest task is the one the machine paused. async_hooks
 * and a getrusage per task slow the core: profile runs only.
 */
function createTaskWatch() {
  let depth = 0;
  const promises = new Set<number>();
  let cur: { from: bigint; to: bigint; cpu: number } | null = null;
  let best = { from: 0n, to: 0n, cpuMs: 0 };
  const hook = createHook({
    init(id, type) {
      if (type === 'PROMISE') promises.add(id);
    },
    before(id) {
      if (depth++ > 0) return;
      // A promise reaction continues the task it follows; any other callback begins one.
      if (cur && promises.has(id)) return;
      cur = { from: process.hrtime.bigint(), to: 0n, cpu: loopCpuMs() };
    },
    after(id) {
      promises.delete(id);
      if (--depth > 0 || !cur) return;
      cur.to = process.hrtime.bigint();
      const cpuMs = loopCpuMs() - cur.cpu;
      if (cpuMs > best.cpuMs) best = { from: cur.from, to: cur.to, cpuMs };
    },
  }).enable();
  return {
    stop(): { fromUs: number; toUs: number; cpuMs: number } {
      hook.disable();
      return { fromUs: Number(best.from / 1000n), toUs: Number(best.to / 1000n), cpuMs: best.cpuMs };
    },
  };
}
/**
 * CPU time (ms, at the kernel's 10 ms tick) of this process's threads by kind (Linux
 * /proc/self/task): `main` is the event loop's thread; the others by their names (the checkpoint
 * worker's thread, libuv's pool, V8's helpers and its garbage collector). process.cpuUsage counts
 * them all; a profile sees the main thread only.
 */
function threadsCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    const name = tid === String(process.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, close).trim();
    const f = stat.slice(close + 2).split(' '); // from field 3 (state): utime is field 14, stime 15
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
  }
  return out;
}
let threadsAtMark = new Map<string, number>();
/**
 * The process's reads from /proc (proc(5)): `read_bytes` what it caused to be fetched from the
 * storage (a page the kernel's cache did not hold), `rchar` and `syscr` the bytes and calls of its
 * read system calls (SQLite's page reads are preads), `majflt` the page faults that read a file.
 */
function ioCounters(): Record<'readBytes' | 'rchar' | 'syscr' | 'majflt', number> {
  try {
    const io = Object.fromEntries(
      readFileSync('/proc/self/io', 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(':').map((x) => x.trim())),
    ) as Record<string, string>;
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3: majflt is field 12
    return { readBytes: Number(io.read_bytes), rchar: Number(io.rchar), syscr: Number(io.syscr), majflt: Number(f[9]) };
  } catch {
    return { readBytes: NaN, rchar: NaN, syscr: NaN, majflt: NaN };
  }
}
let ioAtMark = ioCounters();
/**
 * The garbage collections between `mark` and `measure` (perf_hooks' gc entries): their total
 * time, the major (mark-compact) ones' and the longest, so a stall or a CPU figure can be told to
 * be the collector's or the station's.
 */
const gc = { ms: 0, majorMs: 0, longestMs: 0, count: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.count++;
    gc.longestMs = Math.max(gc.longestMs, e.duration);
    const detail = (e as PerformanceEntry & { detail?: { kind?: number } }).detail;
    if (detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gc.majorMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

let tasks: ReturnType<typeof createTaskWatch> | null = null;
const profDir = process.env.BENCH_CORE_PROF;
let session: Session | null = earlySession;
let profiles = 0;
let quitting = false;

const commands: Record<string, () => Promise<void>> = {
  async mark() {
    loop?.disable();
    // 10 ms resolution: a block shows as its length; the timer itself costs next to nothing.
    loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    stalls?.stop();
    stalls = createStallWatch();
    if (profDir) {
      if (!profilingSinceStart) {
        session ??= new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      tasks?.stop();
      tasks = createTaskWatch();
    }
    threadsAtMark = threadsCpu();
    ioAtMark = ioCounters();
    Object.assign(gc, { ms: 0, majorMs: 0, longestMs: 0, count: 0 });
    cpu = process.cpuUsage();
    say(`marked ${JSON.stringify({ at: epoch() })}`);
  },
  async measure() {
    const used = process.cpuUsage(cpu);
    const threadsCpuMs: Record<string, number> = {};
    for (const [name, ms] of threadsCpu()) {
      const d = ms - (threadsAtMark.get(name) ?? 0);
      if (d > 0) threadsCpuMs[name] = d;
    }
    const ioNow = ioCounters();
    const io = {
      readBytes: ioNow.readBytes - ioAtMark.readBytes,
      rchar: ioNow.rchar - ioAtMark.rchar,
      syscr: ioNow.syscr - ioAtMark.syscr,
      majflt: ioNow.majflt - ioAtMark.majflt,
    };
    const at = epoch();
    loop?.disable();
    const busyMs = stalls?.stop() ?? NaN;
    stalls = null;
    let profile: string | null = null;
    const longestTask = tasks?.stop() ?? null;
    tasks = null;
    if (profDir && session) {
      const { profile: p } = await session.post('Profiler.stop');
      mkdirSync(profDir, { recursive: true });
      profile = path.join(profDir, `core-${process.pid}-${++profiles}.cpuprofile`);
      writeFileSync(profile, JSON.stringify(p));
      session.disconnect();
      profilingSinceStart = false;
    }
    say(
      `measured ${JSON.stringify({
        at,
        cpuUserMs: used.user / 1000,
        cpuSystemMs: used.system / 1000,
        cpuMs: (used.user + used.system) / 1000,
        loopMaxMs: loop ? loop.max / 1e6 : NaN,
        loopP99Ms: loop ? loop.percentile(99) / 1e6 : NaN,
        loopMaxBlockCpuMs: busyMs,
        profile,
        longestTask,
        threadsCpuMs,
        gc: { ...gc },
        io,
      })}`,
    );
  },
  async quit() {
    if (quitting) return;
    quitting = true;
    await host.close();
    await station.close();
    process.exit(0);
  },
};

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const cmd = commands[line.trim()];
    if (!cmd) return say(`unknown ${line}`);
    cmd().catch((err: unknown) => say(`error ${err instanceof Error ? err.message : String(err)}`));
  })
  // The benchmark is gone (stdin closed): so is the core.
  .on('close', () => void commands.quit!());
say(`ready ${JSON.stringify({ port: host.port, token: host.token, origin: host.origin, pid: process.pid })}`);
