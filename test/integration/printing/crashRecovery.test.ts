/**
 * Crash: a child process draining the queue is killed with SIGKILL at random points, many times.
 * After restart every job is done, queued or uncertain; no label comes out twice (a job whose
 * outcome is unknown is marked uncertain and never sent again by itself); none is lost; and the
 * database passes PRAGMA integrity_check.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { bundleChild } from '../../support/childBundle';
import { freshDb, packageLabelZpl, tempDir } from './printingTestKit';

let worker: { file: string; remove(): void };
let workerFile: string;
let printer: VirtualZplPrinter;

beforeAll(async () => {
  worker = await bundleChild(path.join(__dirname, 'fixtures', 'drainWorker.ts'), 'printing-crash', {
    external: ['zpl-renderer-js'],
  });
  workerFile = worker.file;
  printer = await startVirtualZplPrinter();
});

afterAll(async () => {
  await printer?.close();
  worker?.remove();
});

function runWorker(dbFile: string, killAfterMs: number | null): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerFile, dbFile, String(printer.port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0) resolve('finished');
      else reject(new Error(`worker exited with ${code}: ${stderr}`));
    });
  });
}

describe('crash recovery of the print queue', () => {
  it('survives 20 SIGKILLs mid-drain: every job done, queued or uncertain, no label printed twice, none lost', async () => {
    const { db, file } = freshDb(tempDir('crash-'));
    const jobs = createPrintJobsRepo(db);
    const total = 400;
    const ids: number[] = [];
    for (let i = 0; i < total; i++) {
      const barcode = `CRASH${String(i).padStart(3, '0')}`;
      ids.push(
        jobs.insert(
          {
            kind: 'print',
            printerId: 'zebra',
            format: 'zpl',
            payload: Buffer.from(packageLabelZpl(barcode)),
            labelSize: '10x15',
            title: barcode,
            barcodes: [barcode],
          },
          new Date(),
        ).id,
      );
    }
    db.close();

    let kills = 0;
    let killedMidDrain = 0;
    for (let round = 0; round < 20; round++) {
      // Random points: from before the first byte to well into the drain.
      const outcome = await runWorker(file, 60 + Math.floor(Math.random() * 140));
      if (outcome === 'killed') kills++;
      const peek = new Database(file, { readonly: true });
      const left = (
        peek.prepare("SELECT count(*) AS n FROM print_jobs WHERE state IN ('queued', 'sending', 'failed')").get() as {
          n: number;
        }
      ).n;
      peek.close();
      if (outcome === 'killed' && left > 0) killedMidDrain++;
    }
    // The kills must land while work is in flight, or the test proves nothing.
    expect(killedMidDrain).toBeGreaterThanOrEqual(5);
    expect(await runWorker(file, null)).toBe('finished');

    const check = new Database(file);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    const after = freshDbAt(file);
    const printedCount = new Map<string, number>();
    for (const p of printer.printed()) {
      const code = /\^FD(CRASH\d+)\^FS/.exec(p.zpl)![1]!;
      printedCount.set(code, (printedCount.get(code) ?? 0) + 1);
    }
    const states: Record<string, number> = {};
    for (const id of ids) {
      const job = after.get(id)!;
      expect(job, `job ${id} lost`).toBeDefined();
      states[job.state] = (states[job.state] ?? 0) + 1;
      const n = printedCount.get(job.title) ?? 0;
      expect(['done', 'uncertain'], `job ${id} after the final clean run`).toContain(job.state);
      if (job.state === 'done') expect(n, `${job.title} printed`).toBe(1);
      if (job.state === 'uncertain') expect(n).toBeLessThanOrEqual(1);
      const wasUncertain = after.history(id).some((e) => e.state === 'uncertain');
      if (n > 1) expect(wasUncertain).toBe(true);
    }
    expect(Math.max(0, ...printedCount.values())).toBeLessThanOrEqual(1);
    console.info(`crash test: ${kills} kills (${killedMidDrain} mid-drain), final states ${JSON.stringify(states)}`);
  }, 120_000);
});

function freshDbAt(file: string) {
  const db = new Database(file);
  return createPrintJobsRepo(db);
}
