/**
 * Power cut, the whole chain: the station's durability promise is that every journal step (SQLite,
 * WAL, committed at `synchronous = NORMAL`, its -wal file synced before anything acts on it:
 * electron/store/walSync.ts) is on the disk before the side effect it allows (a close at the
 * service, a label sent to the printer, a scan's acknowledgement, a set-up's answer). A SIGKILL does not test that (the OS page cache survives
 * a killed process); a power cut drops every write not yet synced. So the station's data folder
 * here is a FUSE mount (test/support/lossyfs.py) that keeps written data in memory until
 * fsync / fdatasync and writes it through to a backing folder then. A cut: SIGKILL the station
 * child, then SIGKILL the file system (unsynced data gone) and unmount it; the next run starts on
 * a fresh mount of what the backing folder holds.
 *
 * The rig is crashChain's (test/support/crashRig.ts): the real station core in a child process
 * (fixtures/stationChild.ts), a real sandbox with latency on the close and the ZPL fetch, and a
 * real TCP listener as the label printer. Cuts: POWERCUT_CUTS (default 10) at random moments
 * while scanning (after a random number of acknowledged scans, or a random time), and three right
 * after a set-up returned: a printer with a carrier route, an account, a setting. Every set-up
 * made before a cut must still be there after it (checked after every restart and at the end).
 * At the end, after a run that is not cut (settle, quit), crashChain's invariants: 0 lost scans,
 * 0 lost labels, 0 unflagged duplicates, PRAGMA integrity_check ok after every cut.
 *
 * Replay: the seed is printed; CRASH_SEED=<n> repeats the choices (cut points depend on timing
 * too). CRASH_KEEP=1 keeps the backing folder. Needs FUSE (`needs('fuse')`: skipped locally without
 * it, fails under CI=true). POWERCUT_NO_WAL_SYNC=1 runs the station with the -wal syncs it awaits
 * doing nothing (a test-only seam in the child, CRASH_NO_WAL_SYNC: it acts on commits that are not
 * on the disk), to show that the test catches what it guards: the counts then are not 0.
 * POWERCUT_SYNCHRONOUS=FULL|NORMAL|OFF sets the database's `synchronous` (CRASH_SYNCHRONOUS).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildStationChild,
  childSupply,
  integrityProblem,
  rng,
  sample,
  sleep,
  startChild,
  startRig,
  streamWork,
  verdict,
  type Child,
  type Rig,
} from '../../support/crashRig';
import { mountLossyFs, type LossyMount } from '../../support/lossyFs';
import { needs } from '../../support/services';

const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
const SCAN_CUTS = Number(process.env.POWERCUT_CUTS ?? 10);
const SHIPMENTS = 400;
const PRINT_WAIT_MS = 400;
const RUN_WATCHDOG_MS = 15_000;
const LOOP_BUDGET_MS = 200_000;
const SYNCHRONOUS = process.env.POWERCUT_SYNCHRONOUS;
const NO_WAL_SYNC = process.env.POWERCUT_NO_WAL_SYNC === '1';

const fuseOk = needs('fuse');

let rig: Rig;
let bundle: Awaited<ReturnType<typeof buildStationChild>>;
let top: string;
let backing: string;
let dataDir: string;
let fs: LossyMount | null = null;

const children = childSupply(() =>
  startChild({
    childFile: bundle.childFile,
    dataDir,
    sandbox: rig.sandbox,
    printerPort: rig.printer.port,
    printWaitMs: PRINT_WAIT_MS,
    watchdogMs: RUN_WATCHDOG_MS,
    env: {
      ...(SYNCHRONOUS ? { CRASH_SYNCHRONOUS: SYNCHRONOUS } : {}),
      ...(NO_WAL_SYNC ? { CRASH_NO_WAL_SYNC: '1' } : {}),
    },
  }),
);

/** A set-up made through the station's RPC before a cut, and how to see it is still there. */
interface Setup {
  what: string;
  run: number;
  present(state: SetupState): boolean;
}
interface SetupState {
  printers: { id: string }[];
  routes: { carriers: Record<string, { printerId: string }> };
  accounts: { clientId: string }[];
  settings: { volume: number; sounds: boolean };
}

/** What the station refused (rpc-error lines), for the set-up assertion's message. */
const refused: string[] = [];

/** One RPC through the child, as the renderer would; null when the child ended or refused. */
async function rpc(child: Child, method: string, params: unknown = {}): Promise<any> {
  if (!child.send(`rpc ${method} ${JSON.stringify(params)}`)) return null;
  const line = await child.waitLine((l) => l.startsWith(`rpc-ok ${method} `) || l.startsWith(`rpc-error ${method} `));
  if (line?.startsWith('rpc-error')) refused.push(line);
  if (!line?.startsWith('rpc-ok')) return null;
  // The child's lines stay in its list: a later call of the same method must not see this one.
  child.lines.splice(child.lines.indexOf(line), 1);
  return JSON.parse(line.slice(`rpc-ok ${method} `.length));
}

async function setupState(child: Child): Promise<SetupState | null> {
  const printers = await rpc(child, 'printing.printers.list');
  const routes = await rpc(child, 'printing.routes.get');
  const accounts = await rpc(child, 'accounts.list');
  const settings = await rpc(child, 'settings.get');
  return printers && routes && accounts && settings ? { printers, routes, accounts, settings } : null;
}

beforeAll(async () => {
  if (!fuseOk) return;
  bundle = await buildStationChild('station-powercut');
  rig = await startRig();
  top = mkdtempSync(path.join(tmpdir(), 'station-power-cut-'));
  backing = path.join(top, 'backing');
  dataDir = path.join(top, 'data');
  mkdirSync(backing);
  mkdirSync(dataDir);
  fs = await mountLossyFs(backing, dataDir);
});

afterAll(async () => {
  if (!fuseOk) return;
  await children.stop();
  await fs?.unmount();
  await rig?.close();
  bundle?.remove();
  // CRASH_KEEP=1 keeps the backing folder (what the disk held) to look into a failure.
  if (top && !process.env.CRASH_KEEP) rmSync(top, { recursive: true, force: true });
});

describe.skipIf(!fuseOk)('power cut of the whole chain (unsynced writes lost, on a lossy FUSE file system)', () => {
  it(`over ${SCAN_CUTS} cuts while scanning and 3 right after set-ups: nothing acknowledged lost, no closed shipment without its labels, no unflagged duplicate, the set-ups kept, the database intact`, async () => {
    const started = Date.now();
    console.log(
      `power cut: seed=${SEED} (CRASH_SEED=${SEED} to replay the choices; CRASH_KEEP=1 keeps ${backing})${SYNCHRONOUS ? ` synchronous=${SYNCHRONOUS} (test seam)` : ''}${NO_WAL_SYNC ? ' -wal syncs skipped (test seam)' : ''}`,
    );
    const r = rng(SEED);
    const picks = rng(SEED ^ 0x5bd1e995);
    const externalById = await rig.insertShipments(SHIPMENTS);
    const deliveryIds = [...externalById.keys()];
    const backingDb = path.join(backing, 'station.db');

    const pool = [...externalById.values()];
    const acked = new Map<number, string>();
    const collected = new Set<string>();
    const takeCode = (): string | null => (pool.length ? pool.splice(picks.int(0, pool.length - 1), 1)[0]! : null);
    const setups: Setup[] = [];
    const setupsLost: string[] = [];
    const integrity: { run: number; result: string }[] = [];
    const crashes: { run: number; code: number | null; signal: string | null; stderr: string }[] = [];
    const hung: number[] = [];
    let cuts = 0;
    let scanCuts = 0;
    let setupCuts = 0;
    let cutsMidWork = 0;
    let runs = 0;

    /** After a restart: every set-up made before is still there. */
    async function checkSetups(child: Child, run: number): Promise<void> {
      if (!setups.length) return;
      const state = await setupState(child);
      if (!state) return; // the child did not answer (it is counted as a crash or a hang)
      for (const s of setups)
        if (!s.present(state) && !setupsLost.some((l) => l.startsWith(`${s.what} `)))
          setupsLost.push(`${s.what} (made in run ${s.run}, gone in run ${run})`);
    }

    /** The power cut: the station dies, then every write it had not synced. */
    async function powerCut(child: Child, run: number): Promise<void> {
      child.kill();
      await child.exited;
      await fs!.cut();
      const problem = integrityProblem(backingDb);
      if (problem !== null) integrity.push({ run, result: problem });
      fs = await mountLossyFs(backing, dataDir);
    }

    type Plan = 'scan' | 'printer-route' | 'account' | 'setting';
    const plans: Plan[] = Array.from({ length: SCAN_CUTS }, () => 'scan');
    plans.splice(1, 0, 'printer-route');
    plans.splice(Math.min(4, plans.length), 0, 'account');
    plans.splice(Math.min(7, plans.length), 0, 'setting');

    for (const plan of plans) {
      if (Date.now() - started > LOOP_BUDGET_MS) break;
      const run = ++runs;
      await rig.setLatency(r);
      const mode = r.chance(0.5) ? 'acks' : 'time';
      const withBatch = plan === 'scan' && r.chance(0.25);
      const scans = plan === 'scan' ? r.int(2, 8) : r.int(1, 4);
      const batchAt = r.int(0, scans);
      const batchSize = r.int(5, 15);
      const ackTarget = r.int(1, scans + (withBatch ? batchSize : 0));
      const timeCutMs = r.int(0, 1200);
      const afterAckMs = r.int(0, 150);
      const tailCutMs = r.int(0, 500);
      const gaps = Array.from({ length: scans }, () => (r.chance(0.3) ? 0 : r.int(5, 150)));

      const child = children.next();
      const begun = await child.begin();
      const inFlight = new Set<string>();
      let workSeen = false;
      let acks = 0;
      let cutAsked = false;
      let cutDone: Promise<void> | undefined;
      const timers: NodeJS.Timeout[] = [];
      // The cut is the test's own: a child that exits by itself before it is a crash.
      const cutNow = () => {
        if (cutAsked) return;
        cutAsked = true;
        cutDone = powerCut(child, run);
      };
      const cutIn = (ms: number) => timers.push(setTimeout(cutNow, ms));
      child.onLine((l) => {
        const [what, a, b] = l.split(' ');
        if (what === 'ack') {
          acked.set(Number(a), b!);
          inFlight.delete(b!);
        } else if (what === 'collected') {
          collected.add(a!);
          inFlight.delete(a!);
        } else return;
        workSeen = true;
        if (++acks === ackTarget && plan === 'scan' && mode === 'acks') cutIn(afterAckMs);
      });
      const watchdog = setTimeout(() => {
        if (!cutAsked) hung.push(run);
        cutNow();
      }, RUN_WATCHDOG_MS + 15_000);

      const ready = begun && (await child.waitLine((l) => l === 'ready'));
      if (ready) {
        await checkSetups(child, run);
        if (plan === 'scan' && mode === 'time') cutIn(timeCutMs);
        await streamWork(child, {
          scans,
          gaps,
          batch: withBatch ? { at: batchAt, size: batchSize } : null,
          takeCode,
          inFlight,
          stop: () => cutAsked,
        });
        if (plan === 'scan') cutIn(tailCutMs);
        else if (!cutAsked) {
          // A set-up as Settings makes it, the cut the moment its answer is back.
          let made: Setup | null = null;
          if (plan === 'printer-route') {
            const printerId = `cut-printer-${run}`;
            const carrier = `CUT${run}`;
            const saved = await rpc(child, 'printing.printers.save', {
              id: printerId,
              name: `Power-cut printer ${run}`,
              connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: rig.printer.port },
              settings: {
                dpi: 203,
                darkness: 0,
                offsetX: 0,
                offsetY: 0,
                rotate180: false,
                copies: 1,
                hostStatus: true,
                media: '',
                fitToPage: true,
              },
            });
            const routes = saved && (await rpc(child, 'printing.routes.get'));
            const set =
              routes &&
              (await rpc(child, 'printing.routes.set', {
                ...routes,
                carriers: { ...routes.carriers, [carrier]: { format: 'zpl', printerId } },
              }));
            if (set) {
              cutNow();
              made = {
                what: `printer ${printerId} with route ${carrier}`,
                run,
                present: (s) =>
                  s.printers.some((p) => p.id === printerId) && s.routes.carriers[carrier]?.printerId === printerId,
              };
            }
          } else if (plan === 'account') {
            const clientId = `cut-client-${run}`;
            const added = await rpc(child, 'accounts.add', {
              name: `Power-cut company ${run}`,
              environment: 'test',
              baseUrl: rig.sandbox.url,
              clientId,
              clientSecret: 'not-a-secret',
            });
            if (added) {
              cutNow();
              made = {
                what: `account ${clientId}`,
                run,
                present: (s) => s.accounts.some((a) => a.clientId === clientId),
              };
            }
          } else {
            const volume = 10 + run;
            const set = await rpc(child, 'settings.set', { volume, sounds: false });
            if (set) {
              cutNow();
              made = {
                what: `setting volume=${volume}`,
                run,
                present: (s) => s.settings.volume === volume && s.settings.sounds === false,
              };
            }
          }
          if (made) {
            setups.push(made);
            setupCuts++;
          }
          cutNow(); // a set-up the station refused: cut all the same (the set-up count says so)
        }
      }
      // A child that never came up or that ended by itself: cut anyway (a crash is counted below).
      if (!ready) cutNow();
      const { code, signal } = await child.exited;
      clearTimeout(watchdog);
      timers.forEach(clearTimeout);
      if (!cutAsked) cutNow(); // it ended by itself: the power goes anyway, before the next run
      await cutDone;
      if (child.killedByTest() && signal === 'SIGKILL') {
        cuts++;
        if (plan === 'scan') scanCuts++;
        if (workSeen) cutsMidWork++;
      } else {
        crashes.push({ run, code, signal, stderr: child.stderr().slice(-4000) });
      }
      pool.push(...inFlight);
    }

    // The last run: not cut; the batch list closed, everything settled, the set-ups checked once more.
    let finalState: string;
    let finalStderr: string;
    await rig.clearFaults();
    {
      const child = children.next(false);
      const begun = await child.begin();
      const step = async (cmd: string | null, pred: (l: string) => boolean, timeoutMs: number) => {
        if (cmd !== null) child.send(cmd);
        return child.waitLine(pred, timeoutMs);
      };
      const ready = begun && (await step(null, (l) => l === 'ready', 20_000));
      if (ready) await checkSetups(child, runs + 1);
      const closed =
        ready && (await step('closebatch', (l) => l.startsWith('batch-closed') || l.startsWith('batch-error'), 20_000));
      const settled =
        closed && (await step('settle', (l) => l === 'settled' || l.startsWith('settle-timeout'), 40_000));
      if (settled) child.send('quit');
      const quitTimer = setTimeout(() => child.kill(), settled ? 15_000 : 0);
      const { code, signal } = await child.exited;
      clearTimeout(quitTimer);
      finalStderr = child.stderr().slice(-4000);
      finalState = !ready
        ? `no ready (exit ${code ?? signal})`
        : !closed
          ? 'no batch answer'
          : !settled
            ? 'no settle answer'
            : settled !== 'settled'
              ? settled
              : code !== 0
                ? `quit exit ${code ?? signal}`
                : 'ok';
    }
    await children.stop();
    await sleep(200);

    // What the station sees after its clean quit, read through the mount.
    const v = await verdict(rig, { deliveryIds, dbFile: path.join(dataDir, 'station.db'), acked, collected });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `power cut: cuts=${cuts} (while scanning ${scanCuts}, right after set-ups ${setupCuts}) scans acked=${acked.size + collected.size} closed=${v.closedShipments.length} ` +
        `lost scans=${v.lostScans} lost labels=${v.lostLabels.length} unflagged duplicates=${v.duplicates.length} set-ups lost=${setupsLost.length} of ${setups.length} ` +
        `integrity failures=${integrity.length}${v.integrityFinal === 'ok' ? '' : ' (final not ok)'}`,
    );
    console.log(
      `power cut detail: seed=${SEED} runs=${runs}+final cuts mid-work=${cutsMidWork} crashes=${crashes.length} hung=${hung.length} ` +
        `acked scans=${acked.size} batch codes=${collected.size} lost scan acks=${v.lostScanIds.length} lost batch codes=${v.lostBatchCodes.length} ` +
        `closed without any print job=${v.noJob.length} labels printed=${rig.printer.printed().length} unknown labels=${v.unknownLabels} ` +
        `print jobs=${JSON.stringify(v.jobStates)} final=${finalState} time=${seconds}s`,
    );

    const crashText = crashes
      .map((c) => `run ${c.run}: exit ${c.code ?? c.signal}\n${c.stderr}`)
      .slice(0, 3)
      .join('\n---\n');
    expect
      .soft(crashes, `the child crashed or failed ${crashes.length} times by itself (seed ${SEED}):\n${crashText}`)
      .toEqual([]);
    expect.soft(hung, `runs that hung (seed ${SEED})`).toEqual([]);
    expect.soft(finalState, `the final run (seed ${SEED}):\n${finalStderr}`).toBe('ok');
    expect.soft(scanCuts, `cuts while scanning (seed ${SEED})`).toBeGreaterThanOrEqual(Math.min(SCAN_CUTS, 8));
    expect
      .soft(
        setupCuts,
        `cuts right after a set-up (printer and route, account, setting); refused: ${refused.join('; ')}`,
      )
      .toBe(3);
    expect
      .soft(cutsMidWork, 'cuts after the station acknowledged work')
      .toBeGreaterThanOrEqual(Math.floor(scanCuts / 2));
    expect.soft(integrity, `integrity_check of the backing folder after cuts (seed ${SEED})`).toEqual([]);
    expect.soft(v.integrityFinal).toBe('ok');
    expect.soft(setupsLost, `set-ups made before a cut and gone after it (seed ${SEED})`).toEqual([]);
    expect
      .soft(
        v.lostScans,
        `lost scans (seed ${SEED}): scans ${v.lostScanIds
          .slice(0, 10)
          .map(([id, c]) => `${id}:${c}`)
          .join('; ')}; batch codes ${v.lostBatchCodes.slice(0, 10).join(', ')}`,
      )
      .toBe(0);
    expect
      .soft(
        v.lostLabels.length,
        `lost labels (seed ${SEED}): ${sample(v.lostLabels)}\n${v.lostDetail.slice(0, 3).join('\n')}`,
      )
      .toBe(0);
    expect.soft(v.duplicates.length, `unflagged duplicates (seed ${SEED}): ${sample(v.duplicates)}`).toBe(0);
  }, 320_000);
});
