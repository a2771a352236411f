/**
 * Worker threads that decode large request bodies off the server's thread (the largest
 * legal body may not hold the event loop more than 20 ms; in the server's thread an XML body of
 * 1 MiB took ~200 ms). Each runs decodeWorker.mjs, a plain JavaScript file found in the
 * repository's sandbox/http/ (beside this module in the source, walking up from a bundle in dist/).
 * The station's installers do not ship it: there the pool is null and every body is decoded in the
 * server's thread, as before.
 *
 * Workers start at the first large body, stay unreferenced while idle (they never keep a process
 * alive), and a worker that dies fails only its own bodies (decode.ts then decodes them in the
 * server's thread); the next body starts a new one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BodyFormat, DecodeLimits, Refused } from './decodeCore.mjs';

/**
 * The worker's answer: the copied body as JSON text with its lists empty, and each list's items
 * as JSON texts of consecutive items (`''` names the body itself), or why it was refused.
 */
export type WorkerOutcome = { ok: true; json: string; lists: [string, string[]][] } | Refused;

export interface DecodePool {
  decode(format: BodyFormat, text: string, limits: DecodeLimits): Promise<WorkerOutcome>;
  close(): Promise<void>;
}

const FILE = path.join('sandbox', 'http', 'decodeWorker.mjs');

/**
 * decodeWorker.mjs beside this module (source), else walking up from it (a bundle in dist/ run from
 * the repository). Never from the working directory: a worker runs the code it is given.
 */
export function findDecodeWorker(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (existsSync(path.join(here, 'decodeWorker.mjs'))) return path.join(here, 'decodeWorker.mjs');
  for (let dir = here; ; dir = path.dirname(dir)) {
    // A worker thread reads its file with plain file access, which cannot look inside app.asar.
    if (/[\\/]app\.asar([\\/]|$)/.test(dir)) return null;
    if (existsSync(path.join(dir, FILE))) return path.join(dir, FILE);
    if (path.dirname(dir) === dir) return null;
  }
}

interface Job {
  resolve(outcome: WorkerOutcome): void;
  reject(err: Error): void;
}
interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
}
type Answer = { id: number; error?: string } & Partial<WorkerOutcome>;

/**
 * Two workers by default: enough to decode two large bodies at once on the sandbox's usual
 * machines (a laptop, a CI runner with 2 cores) without taking every core from the server.
 */
export function createDecodePool(
  file: string | null = findDecodeWorker(),
  size = 2,
  onError: (err: unknown) => void = () => {},
): DecodePool | null {
  if (!file) return null;
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;

  const start = (): Slot => {
    const worker = new Worker(file);
    worker.unref();
    const slot: Slot = { worker, jobs: new Map() };
    const fail = (err: Error) => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      for (const job of slot.jobs.values()) job.reject(err);
      slot.jobs.clear();
    };
    worker.on('message', (a: Answer) => {
      const job = slot.jobs.get(a.id);
      slot.jobs.delete(a.id);
      if (slot.jobs.size === 0) worker.unref();
      if (!job) return;
      if (a.error !== undefined) job.reject(new Error(a.error));
      else job.resolve(a as WorkerOutcome);
    });
    worker.on('error', (err) => {
      if (!closed) onError(err);
      fail(err);
    });
    worker.on('exit', (code) => fail(new Error(`the body-decoding worker stopped (exit ${code})`)));
    slots.push(slot);
    return slot;
  };

  /** The idle worker, a new one while there are fewer than `size`, else the least busy. */
  const pick = (): Slot => {
    const idle = slots.find((s) => s.jobs.size === 0);
    if (idle) return idle;
    if (slots.length < size) return start();
    return slots.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  };

  return {
    decode(format, text, limits) {
      if (closed) return Promise.reject(new Error('the body-decoding workers are closed'));
      return new Promise<WorkerOutcome>((resolve, reject) => {
        const slot = pick();
        const id = ++nextId;
        slot.jobs.set(id, { resolve, reject });
        // Referenced while a body is being decoded, so the answer is awaited.
        slot.worker.ref();
        slot.worker.postMessage({ id, format, text, limits });
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
