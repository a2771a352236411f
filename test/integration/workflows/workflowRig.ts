/**
 * One station for the workflow tests, built from real parts: the API client logged in to a real
 * sandbox on 127.0.0.1 (manual mode + the token manager, test/integration/api/support.ts), a
 * station cache in a temporary SQLite file, the durable print queue, a virtual ZPL printer (a real
 * TCP listener answering ~HS) and the PDF folder printer. Two rigs on one sandbox are two stations.
 */
import { createDeskOperator } from '../../../electron/operators/deskOperator';
import { createShelfRepo } from '../../../electron/store/shelfRepo';
import { createDeskActionsRepo } from '../../../electron/store/deskActionsRepo';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from '../../../electron/base/clock';
import { previewPdf } from '../../../electron/printing/labelPreview';
import { lookupInCache, lookupScan } from '../../../electron/lookup/lookupScan';
import { createPdfFolderPrinter, type PdfFolderPrinter } from '../../../electron/printing/virtualPdfPrinter';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import type { PrinterDriver } from '../../../electron/printing/printerDriver';
import { isMarker } from '../../support/printMarker';
import { createPrintQueue, type PrintQueue } from '../../../electron/queue/printQueue';
import { createCollectionPlacesRepo } from '../../../electron/store/collectionPlacesRepo';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createEndOfDayRepo } from '../../../electron/store/endOfDayRepo';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { createPrintJobsRepo, type PrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createBatchItemsRepo } from '../../../electron/store/batchItemsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { recordDeliveries } from '../../../electron/sync/updateCache';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import { createJobWaiter, createWorkflows, type WorkflowDeps, type Workflows } from '../../../electron/workflows/index';
import { printerSettings, type RoutingRules } from '../../../shared/contract/printing';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { openSession, type Session } from '../api/support';
import { decodeBarcodes } from '../printing/printingTestKit';

export const ZPL_PRINTER = 'desk-zpl';
export const PDF_PRINTER = 'office-pdf';

export interface Rig {
  session: Session;
  db: Db;
  deps: WorkflowDeps;
  workflows: Workflows;
  queue: PrintQueue;
  jobs: PrintJobsRepo;
  printer: VirtualZplPrinter;
  office: PdfFolderPrinter;
  routes: RoutingRules;
  loggedIn: { value: boolean };
  close(): Promise<void>;
}

/** The station database, migrated to the latest version. */
function openStationDb(dir: string): Db {
  const db = openDatabase(path.join(dir, 'station.db'));
  return db;
}

export async function startRig(
  sb: Sandbox,
  opts: {
    printWaitMs?: number;
    clock?: Clock;
    /** The service's address as this desk reaches it (a proxy). */ baseUrl?: string;
  } = {},
): Promise<Rig> {
  // The station's clock (a test moves it to give each step a known time); the service keeps its own.
  const clock = opts.clock ?? systemClock;
  const dir = mkdtempSync(path.join(tmpdir(), 'workflows-'));
  // A short verify delay keeps the lost-answer checks quick; a short timeout makes a hung service visible fast.
  const session = await openSession({ sandbox: sb, baseUrl: opts.baseUrl, verifyDelayMs: 50, timeoutMs: 3000 });
  const db = openStationDb(dir);
  const shipments = createShipmentsRepo(db);
  const labels = createLabelsRepo(db);
  const scanLog = createScanLogRepo(db);
  const places = createCollectionPlacesRepo(db);
  const endOfDay = createEndOfDayRepo(db);
  const jobs = createPrintJobsRepo(db);
  const printer = await startVirtualZplPrinter();
  const office = createPdfFolderPrinter(path.join(dir, 'office'));
  const drivers = new Map<string, PrinterDriver>([
    [
      ZPL_PRINTER,
      createZplTcpDriver({
        host: printer.host,
        port: printer.port,
        settings: printerSettings.parse({ hostStatus: true }),
        timeouts: { connectMs: 500, writeMs: 2000, readMs: 1000 },
      }),
    ],
    [PDF_PRINTER, office],
  ]);
  const waiter = createJobWaiter((id) => jobs.get(id));
  const queue = createPrintQueue({
    jobs,
    clock,
    driverFor: (id) => drivers.get(id),
    backoff: { baseMs: 100, maxMs: 400 },
    tickMs: 50,
    onJobChanged: (j) => waiter.jobChanged(j),
  });
  const routes: RoutingRules = {
    carriers: {},
    defaultRoute: { format: 'zpl', printerId: ZPL_PRINTER },
    protocolPrinterId: PDF_PRINTER,
  };
  const loggedIn = { value: true };
  const now = () => clock.now();
  const source = shipmentSourceFromClient(session.client);
  const desk = createDeskOperator(() => 'Stůl 1');
  const deskActions = createDeskActionsRepo(db, desk.who);
  const deps: WorkflowDeps = {
    desk,
    session: () => (loggedIn.value ? { accountId: session.accountId, client: session.client } : null),
    lookup: (code, o) => lookupScan({ accountId: session.accountId, shipments, source, now }, code, o),
    lookupCached: (code) => (loggedIn.value ? lookupInCache({ accountId: session.accountId, shipments }, code) : null),
    repos: {
      shipments,
      labels,
      scanLog,
      places,
      endOfDay,
      journal: createJournalRepo(db, scanLog, desk.who),
      batchItems: createBatchItemsRepo(db),
      deskActions,
      shelf: createShelfRepo(db, deskActions),
    },
    recordDeliveries: (accountId, list) => void recordDeliveries({ shipments, now }, accountId, list),
    queue,
    routes: () => routes,
    jobs: waiter,
    clock,
    log: session.log,
  };
  const workflows = createWorkflows(deps, {
    scan: { printWaitMs: opts.printWaitMs ?? 8000 },
    batch: { printWaitMs: 8000 },
  });
  queue.start();
  workflows.journal.start();
  return {
    session,
    db,
    deps,
    workflows,
    queue,
    jobs,
    printer,
    office,
    routes,
    loggedIn,
    async close() {
      await workflows.journal.stop();
      await queue.stop();
      await printer.close();
      db.close();
    },
  };
}

/** Forgets what the desk's printers received so far (the ZPL printer's labels, the office printer's PDFs). */
export function clearPrinted(rig: Rig): void {
  rig.printer.clear();
  for (const f of rig.office.received()) rmSync(path.join(rig.office.folder, f.name));
}

/**
 * The package barcodes that came out of the desk's printers, one entry per printed label, as a
 * worker would read them: each ZPL label the virtual label printer printed, then every page of
 * the office printer's PDFs rendered (pdftoppm) and decoded (zbarimg). Only barcodes among
 * `expected` are reported, so other codes on a label never count.
 */
export async function printedBarcodes(rig: Rig, expected: (string | null)[]): Promise<string[]> {
  const known = expected.filter((b): b is string => !!b);
  const out: string[] = [];
  for (const label of rig.printer.printed()) {
    const b = known.find((k) => label.zpl.includes(k));
    if (b) out.push(b);
  }
  for (const f of rig.office.received()) {
    for (const page of await previewPdf(readFileSync(path.join(rig.office.folder, f.name)), 200)) {
      out.push(...(await decodeBarcodes(Buffer.from(page.png, 'base64'))).filter((b) => known.includes(b)));
    }
  }
  return out;
}

/** How many print jobs of the desk's printers have come out. */
export const printedCount = (rig: Rig) =>
  rig.printer.printed().filter((l) => !isMarker(l)).length + rig.office.received().length;

/**
 * A test file's sandbox, seeded with the demo data, and one rig on it: started before the file's
 * tests and closed after them. `use` receives both (`withDemoRig((r) => ({ sb, rig } = r))`).
 */
export function withDemoRig(use: (r: { sb: Sandbox; rig: Rig }) => void): void {
  let sb: Sandbox | undefined;
  let rig: Rig | undefined;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 'demo' });
    rig = await startRig(sb);
    use({ sb, rig });
  });
  afterAll(async () => {
    await rig?.close();
    await sb?.close();
  });
}
