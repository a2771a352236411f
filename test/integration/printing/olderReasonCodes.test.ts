/**
 * Print jobs an older version stored with a reason code this version does not know (renamed or
 * gone): the print queue still lists them, with their history, within the contract, as
 * `older_version_reason` with the sentence the older version stored (shown as its own words).
 * Real SQLite, the real printing service and the RPC server's validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createPrintingService, type PrintingService } from '../../../electron/printing/printingService';
import { createRpcServer, type Handlers, type RpcServer } from '../../../electron/rpc/rpcServer';
import type { Db } from '../../../electron/store/database';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { events as contractEvents, methods } from '../../../shared/contract';
import { freshDb, tempDir, waitFor } from './printingTestKit';

const log = { info() {}, warn() {}, error() {} };
/** What an older version wrote for a queued job waiting on a printer in error (before the codes were one registry). */
const OLDER_CODE = 'error';
const OLDER_SENTENCE = 'Tiskárna „Sklad 2“ hlásí chybu.';

let db: Db;
let printing: PrintingService;
let rpc: RpcServer;
let jobId: number;
const emitted: { name: string; payload: unknown }[] = [];

beforeAll(async () => {
  const dir = tempDir('older-reasons-');
  ({ db } = freshDb(dir));
  // The older version's rows: a failed job on a printer since removed, its history with the old code.
  const job = createPrintJobsRepo(db).insert(
    { kind: 'print', printerId: 'sklad-2', format: 'zpl', payload: Buffer.from('^XA^XZ'), title: 'Štítek 1001' },
    new Date('2026-01-05T08:00:00Z'),
  );
  jobId = job.id;
  db.prepare(`UPDATE print_jobs SET state = 'failed', reason_code = ?, reason = ? WHERE id = ?`).run(
    OLDER_CODE,
    OLDER_SENTENCE,
    jobId,
  );
  db.prepare(
    `INSERT INTO print_job_events (job_id, at, state, reason_code, reason) VALUES (?, '2026-01-05T08:00:01.000Z', 'failed', ?, ?)`,
  ).run(jobId, OLDER_CODE, OLDER_SENTENCE);

  printing = await createPrintingService({
    db,
    clock: systemClock,
    dataDir: dir,
    emit: (name: string, payload: unknown) => emitted.push({ name, payload }),
  });
  await printing.start();
  rpc = createRpcServer(printing.handlers as Handlers, log);
});
afterAll(async () => {
  await printing.close();
});

async function call(
  method: 'printing.queue.list' | 'printing.queue.history' | 'printing.queue.cancel',
  params: object,
) {
  const r = await rpc.dispatch(method, params);
  if (!r.ok) throw new Error(r.error.message);
  // What the page receives must be what the contract promises it.
  return methods[method].result.parse(r.value);
}

describe('a reason code stored by an older version', () => {
  it('is listed as older_version_reason with its stored sentence, within the contract', async () => {
    const list = (await call('printing.queue.list', { limit: 10 })) as { id: number }[];
    expect(list.find((j) => j.id === jobId)).toMatchObject({
      state: 'failed',
      reasonCode: 'older_version_reason',
      reason: OLDER_SENTENCE,
    });
  });

  it("is in the job's history the same way, beside the reasons this version gives", async () => {
    await call('printing.queue.cancel', { jobId });
    const history = (await call('printing.queue.history', { jobId })) as { state: string; reasonCode: string | null }[];
    expect(history.map((e) => [e.state, e.reasonCode])).toEqual([
      ['queued', null],
      ['failed', 'older_version_reason'],
      ['cancelled', 'cancelled_by_worker'],
    ]);
    // The change the pages follow passes the contract's check of events.
    const changes = () =>
      emitted
        .filter((e) => e.name === 'printing.jobs')
        .flatMap((e) => contractEvents['printing.jobs'].parse(e.payload).jobs);
    await waitFor(() => changes().some((j) => j.id === jobId));
    expect(changes()).toContainEqual(
      expect.objectContaining({ id: jobId, state: 'cancelled', reasonCode: 'cancelled_by_worker' }),
    );
  });
});
