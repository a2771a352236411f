/**
 * The print queue's reprint ("print again" on a job that failed, "reprint" on one that printed)
 * against a real sandbox, the station's SQLite journal, the durable queue and a virtual ZPL printer
 * on a real TCP listener, through the RPC handler the queue screen calls. What a worker checks:
 * the day's counters (a scan whose label came out is not "Waiting"), the labels that came out
 * (one per parcel), and that the reprint is in the parcel's history (the journal).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { createQueueReprint } from '../../../electron/workflows/queueReprint';
import { createRetention } from '../../../electron/retention/retention';
import { systemClock } from '../../../electron/base/clock';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { clearPrinted, startRig, type Rig } from './workflowRig';

let sb: Sandbox;
let rig: Rig;
let reprintFromQueue: (jobId: number) => unknown;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb, { printWaitMs: 1000 });
  const { handlers } = createQueueReprint(rig.deps);
  reprintFromQueue = (jobId) => handlers['printing.queue.reprint']({ jobId, why: { code: 'damaged' } });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});
beforeEach(() => {
  rig.printer.set({ paperOut: false, jammed: false });
  clearPrinted(rig);
});

async function insert(over: Partial<DeliveryInput> = {}) {
  const [d] = await rig.session.client.insertDeliveries([shipment(over)]);
  return d!;
}

const midnight = () => new Date(new Date().setHours(0, 0, 0, 0));
const counters = () => rig.deps.repos.scanLog.countsSince(rig.session.accountId, midnight());

/** The journal's entries holding a print job, as stored (source and shipment). */
const entriesOfJob = (jobId: number) =>
  rig.db
    .prepare(
      'SELECT e.source, e.delivery_id AS deliveryId, e.scan_id AS scanId FROM journal_entries e JOIN journal_jobs j ON j.entry_id = e.id WHERE j.job_id = ? ORDER BY e.id',
    )
    .all(jobId) as { source: string; deliveryId: number; scanId: number | null }[];

describe('reprint from the print queue', () => {
  it('"print again" on a scan\'s failed label: the copy is the scan\'s label, so once it prints the scan counts as printed, not "Waiting"', async () => {
    const d = await insert();
    // Out of paper before the label is sent: the job fails and waits for its printer.
    rig.printer.set({ paperOut: true });
    // The printer's last all-clear answer stands for the check before a job for 50 ms (STATUS_FRESH_MS in
    // electron/printing/zplTcpDriver.ts): past it, the station asks again and hears "out of paper".
    await new Promise((r) => setTimeout(r, 100));
    const outcome = await rig.workflows.scanToClose.scan(d.externalId!);
    expect(outcome.kind).toBe('printer_down');
    const failed = 'jobIds' in outcome ? outcome.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(failed).state === 'failed');
    expect(counters().queued).toBe(1);

    const copy = reprintFromQueue(failed) as { id: number };
    rig.printer.set({ paperOut: false });
    await waitFor(() => rig.deps.queue.get(copy.id).state === 'done', 15_000);

    // One label came out for the parcel, and the scan is printed in the day's counters.
    expect(rig.printer.printed()).toHaveLength(1);
    await waitFor(() => rig.deps.repos.scanLog.get(outcome.scanId)?.outcome === 'printed', 5000);
    expect(counters().queued ?? 0).toBe(0);
    // The reprint is in the parcel's history, and the scan's entry holds the copy.
    expect(entriesOfJob(copy.id)).toEqual(
      expect.arrayContaining([
        { source: 'scan', deliveryId: d.deliveryId, scanId: outcome.scanId },
        { source: 'reprint', deliveryId: d.deliveryId, scanId: null },
      ]),
    );
    expect(rig.deps.queue.get(failed).state).toBe('cancelled');
  });

  it('"reprint" of a parcel whose newer label is still in the printer is refused (labels_in_printer); it prints once when the printer goes on', async () => {
    const d = await insert();
    const first = await rig.workflows.scanToClose.scan(d.externalId!);
    const printed = 'jobIds' in first ? first.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(printed).state === 'done');
    // A reprint from the Station screen goes into the printer and stays there (it jammed after taking it).
    rig.printer.set({ jammed: true });
    const again = await rig.workflows.scanToClose.scan(String(d.deliveryId));
    expect(again.kind).toBe('already_closed');
    const second = await rig.workflows.scanToClose.reprint({
      deliveryId: d.deliveryId,
      scanId: again.scanId,
      why: { code: 'damaged' },
    });
    const inPrinter = 'jobIds' in second ? second.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(inPrinter).state === 'sent');

    expect(() => reprintFromQueue(printed)).toThrow(expect.objectContaining({ code: 'labels_in_printer' }));

    rig.printer.set({ jammed: false });
    await waitFor(() => rig.deps.queue.get(inPrinter).state === 'done');
    // The first label and the Station screen's reprint: no third one from the queue.
    expect(rig.printer.printed()).toHaveLength(2);
    expect(entriesOfJob(printed).map((e) => e.source)).toEqual(['scan']);
  });

  it('"reprint" of a printed label the retention keeps once (the kept label, not a copy in the job) prints the very same labels', async () => {
    const d = await insert({ packages: [{ weight: '1.25' }, { weight: '3.40' }] });
    const first = await rig.workflows.scanToClose.scan(d.externalId!);
    const printed = 'jobIds' in first ? first.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(printed).state === 'done');
    const labelsOut = rig.printer.printed().map((l) => l.bytes);
    expect(labelsOut).toHaveLength(2);
    clearPrinted(rig);
    // A day later (inside the labels window) a retention run drops the job's own copy of the bytes.
    const later = { ...systemClock, now: () => new Date(Date.now() + 86_400_000) };
    await createRetention({
      db: rig.db,
      settings: createSettingsRepo(rig.db),
      clock: later,
      dataDir: '/nonexistent',
      log: { info: () => undefined, error: () => undefined },
    }).run();
    expect(rig.db.prepare('SELECT count(*) FROM print_job_bytes WHERE job_id = ?').pluck().get(printed)).toBe(0);
    // The queue screen still gives the job's size.
    expect(rig.deps.queue.get(printed).bytes).toBeGreaterThan(0);

    const copy = reprintFromQueue(printed) as { id: number };
    await waitFor(() => rig.deps.queue.get(copy.id).state === 'done');
    expect(rig.printer.printed().map((l) => l.bytes)).toEqual(labelsOut);
  });

  it('"reprint" of a job whose label bytes the retention removed is refused (label_bytes_removed): nothing empty reaches the printer', async () => {
    const d = await insert();
    const first = await rig.workflows.scanToClose.scan(d.externalId!);
    const printed = 'jobIds' in first ? first.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(printed).state === 'done');
    clearPrinted(rig);
    // 91 days later the retention empties the printed job's label bytes (labels are kept 90 days).
    const later = { ...systemClock, now: () => new Date(Date.now() + 91 * 86_400_000) };
    const log = { info: () => undefined, error: () => undefined };
    await createRetention({
      db: rig.db,
      settings: createSettingsRepo(rig.db),
      clock: later,
      dataDir: '/nonexistent',
      log,
    }).run();
    const bytes = rig.db.prepare('SELECT bytes FROM print_job_bytes WHERE job_id = ?').pluck().get(printed) ?? null;
    expect(bytes).toBeNull();

    expect(() => reprintFromQueue(printed)).toThrow(expect.objectContaining({ code: 'label_bytes_removed' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(rig.printer.printed()).toHaveLength(0);
  });
});
