/**
 * Starts the station core in its own process (coreChild.ts, bundled with esbuild) and drives it
 * over the web host's WebSocket, as the page does. Every event frame the core pushes is counted
 * in bytes, by event name (what the page would receive). `mark()`/`measure()` read the core's
 * own CPU time and event-loop delay for the span between them. With `strace: true` the core
 * runs under strace, which records each fsync/fdatasync with its duration (seccomp-filtered, so
 * only those calls stop the process): `syncs(from, to)` counts them in a span.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import WebSocket from 'ws';
import { rpcSubprotocols } from '../../electron/host/webHost';
import type { EventName, EventPayload, MethodName, ParamsOf, ResultOf } from '../../shared/contract';
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import { repoRoot } from './paths';
import type { SandboxProcess } from './sandboxProcess';

export interface CoreFigures {
  at: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  cpuMs: number;
  loopMaxMs: number;
  loopP99Ms: number;
  /** The most CPU time the core's event loop (its thread) used within one stall of it (coreChild.ts createStallWatch). */
  loopMaxBlockCpuMs: number;
  profile: string | null;
  /** With a profile: the task that used the most CPU, its span in the profile's clock (coreChild.ts createTaskWatch). */
  longestTask: { fromUs: number; toUs: number; cpuMs: number } | null;
  /** CPU time by thread (`main`: the event loop's; the others by name), 10 ms resolution (coreChild.ts threadsCpu). */
  threadsCpuMs: Record<string, number>;
  /** Garbage collections in the span: total, major (mark-compact) and longest ms, and how many (coreChild.ts). */
  gc: { ms: number; majorMs: number; longestMs: number; count: number };
  /** The process's reads between mark and measure (/proc/self/io, and its major page faults). */
  io: { readBytes: number; rchar: number; syscr: number; majflt: number };
}

export interface Core {
  pid: number;
  /** The station's page from this core's web host, with its per-launch token (as the app opens it). */
  pageUrl: string;
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** The first event `name` from now on that `match` accepts. */
  waitFor<E extends EventName>(
    name: E,
    match?: (p: EventPayload<E>) => boolean,
    timeoutMs?: number,
  ): Promise<EventPayload<E>>;
  onEvent(fn: (name: string, payload: unknown) => void): () => void;
  /** Bytes of event frames received so far, by event name, and their count. */
  eventBytes: Map<string, { frames: number; bytes: number }>;
  mark(): Promise<{ at: number }>;
  measure(): Promise<CoreFigures>;
  /** fsync + fdatasync calls of the core between two epoch times (seconds): count and total ms. Null without strace. */
  syncs(from: number, to: number): { count: number; ms: number } | null;
  close(): Promise<void>;
}

let bundle: Promise<string> | null = null;

/** Bundles coreChild.ts once per benchmark process, inside node_modules so its packages resolve. */
function coreBundle(): Promise<string> {
  bundle ??= (async () => {
    const outDir = path.join(repoRoot, 'node_modules', '.cache', `bench-core-${process.pid}`);
    mkdirSync(outDir, { recursive: true });
    const outfile = path.join(outDir, 'coreChild.mjs');
    await build({
      entryPoints: [path.join(repoRoot, 'bench', 'harness', 'coreChild.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      define: { STATION_VERSION: '"bench"' },
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
      },
      logLevel: 'warning',
    });
    // The station's worker files beside the bundle, as scripts/build.mjs puts them.
    copyFileSync(
      path.join(repoRoot, 'electron', 'store', 'checkpointWorker.cjs'),
      path.join(outDir, 'checkpointWorker.cjs'),
    );
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    return outfile;
  })();
  return bundle;
}

export function straceAvailable(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

export async function startCore(o: {
  sandbox: SandboxProcess;
  printerPort: number;
  printWaitMs?: number;
  strace?: boolean;
  profileDir?: string;
  synchronous?: string;
  /** The -wal syncs the core awaits before a side effect do nothing (no durability over a power cut). */
  noWalSync?: boolean;
  env?: Record<string, string>;
  /**
   * The core's working folder (its data folder is `<dataDir>/station`), kept at close: a database
   * made beforehand (yearAtDesk), or read after the core stopped. Default: a temporary one, removed at close.
   */
  dataDir?: string;
}): Promise<Core> {
  const childFile = await coreBundle();
  const dataDir = o.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'bench-core-'));
  if (o.dataDir) mkdirSync(o.dataDir, { recursive: true });
  const straceFile = path.join(dataDir, 'syncs.strace');
  const node = [process.execPath, childFile];
  const argv = o.strace
    ? ['strace', '-f', '--seccomp-bpf', '-e', 'trace=fsync,fdatasync', '-T', '-ttt', '-o', straceFile, ...node]
    : node;
  const proc: ChildProcess = spawn(argv[0]!, argv.slice(1), {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BENCH_DATA_DIR: path.join(dataDir, 'station'),
      BENCH_SANDBOX: JSON.stringify({ url: o.sandbox.url, demo: o.sandbox.demo }),
      BENCH_PRINTER_PORT: String(o.printerPort),
      BENCH_PRINT_WAIT_MS: String(o.printWaitMs ?? 8000),
      ...(o.profileDir ? { BENCH_CORE_PROF: o.profileDir } : {}),
      ...(o.synchronous ? { BENCH_SYNCHRONOUS: o.synchronous } : {}),
      ...(o.noWalSync ? { BENCH_NO_WAL_SYNC: '1' } : {}),
      ...o.env,
    },
  });
  proc.stdin!.on('error', () => undefined); // EPIPE once the core has gone
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 100_000) err = err.slice(-50_000);
  });
  const lineWaiters: { prefix: string; resolve: (rest: string) => void }[] = [];
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const i = lineWaiters.findIndex((w) => line.startsWith(`${w.prefix} `) || line === w.prefix);
      if (i >= 0) lineWaiters.splice(i, 1)[0]!.resolve(line.includes(' ') ? line.slice(line.indexOf(' ') + 1) : '');
      else if (line.startsWith('error ') || line.startsWith('unknown ')) process.stderr.write(`core: ${line}\n`);
    }
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const line = (prefix: string, timeoutMs = 120_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`core: no "${prefix}" in ${timeoutMs} ms; stderr: ${err.slice(-2000)}`)),
        timeoutMs,
      );
      lineWaiters.push({ prefix, resolve: (rest) => (clearTimeout(timer), resolve(rest)) });
      void exited.then((code) =>
        reject(new Error(`core exited (${code}) waiting for "${prefix}": ${err.slice(-4000)}`)),
      );
    });
  const ready = JSON.parse(await line('ready')) as { port: number; token: string; origin: string; pid: number };

  const ws = new WebSocket(`ws://127.0.0.1:${ready.port}/rpc`, rpcSubprotocols(ready.token), {
    headers: { origin: ready.origin },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const replies = new Map<number, (m: RpcHostMessage) => void>();
  const listeners = new Set<(name: string, payload: unknown) => void>();
  const eventBytes = new Map<string, { frames: number; bytes: number }>();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as RpcHostMessage;
    if (m.t === 'reply') {
      replies.get(m.id)?.(m);
      replies.delete(m.id);
    } else if (m.t === 'event') {
      const e = eventBytes.get(m.name) ?? { frames: 0, bytes: 0 };
      e.frames++;
      e.bytes += data.length;
      eventBytes.set(m.name, e);
      for (const l of listeners) l(m.name, m.payload);
    }
  });
  let id = 0;
  const core: Core = {
    pid: ready.pid,
    pageUrl: `${ready.origin}/?token=${ready.token}`,
    call(method, params) {
      const myId = ++id;
      return new Promise((resolve, reject) => {
        replies.set(myId, (m) => {
          if (m.t !== 'reply') return;
          if (m.result.ok) resolve(m.result.value as never);
          else reject(new Error(`${method}: ${m.result.error.code} ${m.result.error.message}`));
        });
        ws.send(JSON.stringify({ t: 'call', id: myId, method, params }));
      });
    },
    waitFor(name, match = () => true, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(l);
          reject(new Error(`no ${name} event in ${timeoutMs} ms`));
        }, timeoutMs);
        const l = (n: string, p: unknown) => {
          if (n !== name || !match(p as never)) return;
          listeners.delete(l);
          clearTimeout(timer);
          resolve(p as never);
        };
        listeners.add(l);
      });
    },
    onEvent(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    eventBytes,
    async mark() {
      const r = line('marked');
      proc.stdin!.write('mark\n');
      return JSON.parse(await r) as { at: number };
    },
    async measure() {
      const r = line('measured');
      proc.stdin!.write('measure\n');
      return JSON.parse(await r) as CoreFigures;
    },
    syncs(from, to) {
      if (!o.strace) return null;
      let count = 0;
      let ms = 0;
      for (const l of readFileSync(straceFile, 'utf8').split('\n')) {
        // "<pid> <epoch.micro> fdatasync(12) = 0 <0.000123>"
        const m = /^\d+\s+(\d+\.\d+)\s+f(?:data)?sync\(.*<(\d+\.\d+)>$/.exec(l);
        if (!m) continue;
        const t = Number(m[1]);
        if (t < from || t > to) continue;
        count++;
        ms += Number(m[2]) * 1000;
      }
      return { count, ms };
    },
    async close() {
      ws.close();
      proc.stdin!.write('quit\n');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      if (!o.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return core;
}
