/**
 * The Electron shell's watch over its core (electron/shell/coreSupervisor.ts). Electron's binary is not
 * installed here, so `utilityProcess.fork` is replaced by FakeUtilityProcess: a stand-in that
 * records what the shell sent it and lets the test play the core's part (its messages, its exit).
 * The core's own side of a storage failure (the message, exit code 75) is tested for real in
 * test/integration/station/storageFailure.test.ts and test/integration/rpc/coreProcess.test.ts.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { CoreToMain, MainToCore } from '../../../electron/host/coreProcess';
import {
  createCoreSupervisor,
  type CoreStartError,
  type UtilityProcessLike,
} from '../../../electron/shell/coreSupervisor';
import { STORAGE_FAILED_EXIT_CODE, type StorageFailure } from '../../../shared/storageFailure';

/** A stand-in for Electron's UtilityProcess: the test plays the core. */
class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  readonly sent: MainToCore[] = [];
  killed = false;
  postMessage(message: MainToCore): void {
    this.sent.push(message);
  }
  kill(): boolean {
    this.killed = true;
    return true;
  }
  /** The core says something to the shell. */
  says(msg: CoreToMain): void {
    this.emit('message', msg);
  }
  exits(code: number): void {
    this.emit('exit', code);
  }
}

const failure: StorageFailure = {
  kind: 'io',
  code: 'SQLITE_IOERR_WRITE',
  message: 'disk I/O error',
  at: '2026-11-26T12:00:00.000Z',
};

function rig() {
  const forked: FakeUtilityProcess[] = [];
  const gaveUp: { err: CoreStartError; title?: string }[] = [];
  let restarted = 0;
  let now = 1_000_000;
  const waits: number[] = [];
  const supervisor = createCoreSupervisor({
    fork: () => {
      const p = new FakeUtilityProcess();
      forked.push(p);
      // Electron emits 'spawn' once the process runs.
      queueMicrotask(() => p.emit('spawn'));
      return p;
    },
    dataDir: '/data',
    openExternal: () => undefined,
    restarted: () => void restarted++,
    giveUp: (err, title) => void gaveUp.push({ err, title }),
    now: () => now,
    wait: async (ms) => void waits.push(ms),
  });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  /** The newest core answers its start message as a core does when it serves the contract. */
  const ready = async () => {
    await tick();
    forked.at(-1)!.says({ t: 'ready', logFile: '/data/logs/station.log' });
    await tick();
  };
  return {
    supervisor,
    forked,
    gaveUp,
    waits,
    restarted: () => restarted,
    ready,
    tick,
    advance: (ms: number) => (now += ms),
  };
}

describe('the Electron shell restarts a core that stopped on a storage failure (FakeUtilityProcess)', () => {
  it('starts a new core, tells it why the last one stopped, and reconnects the page', async () => {
    const r = rig();
    const started = r.supervisor.start();
    await r.ready();
    await started;
    expect(r.forked[0]!.sent[0]).toEqual({ t: 'start', dataDir: '/data', restartedAfter: null });

    r.forked[0]!.says({ t: 'storageFailed', failure });
    r.forked[0]!.exits(STORAGE_FAILED_EXIT_CODE);
    await r.ready();

    expect(r.forked).toHaveLength(2);
    // The new core is told why, so its desk says it (status.storage.restartedAfter).
    expect(r.forked[1]!.sent[0]).toEqual({ t: 'start', dataDir: '/data', restartedAfter: failure });
    expect(r.restarted()).toBe(1);
    expect(r.supervisor.ready()).toBe(r.forked[1]);
    // The station log says why the core was restarted.
    expect(r.forked[1]!.sent).toContainEqual(
      expect.objectContaining({
        t: 'log',
        level: 'error',
        fields: expect.objectContaining({ exitCode: 75, code: 'SQLITE_IOERR_WRITE' }),
      }),
    );
    expect(r.gaveUp).toEqual([]);
  });

  it('a disk that keeps failing: the third stop within a minute ends the app with the reason', async () => {
    const r = rig();
    const started = r.supervisor.start();
    await r.ready();
    await started;
    for (let i = 0; i < 3; i++) {
      const core = r.forked.at(-1)!;
      core.says({ t: 'storageFailed', failure });
      core.exits(STORAGE_FAILED_EXIT_CODE);
      r.advance(5_000);
      if (i < 2) await r.ready();
      else await r.tick();
    }
    expect(r.waits).toEqual([1000, 2000]);
    expect(r.gaveUp).toHaveLength(1);
    expect(r.gaveUp[0]!.title).toBe('Label Station stopped');
    expect(r.gaveUp[0]!.err.message).toContain('could not write its data: disk I/O error (SQLITE_IOERR_WRITE)');
    expect(r.forked).toHaveLength(3);
  });

  it("a restart whose start fails (the disk still fails) ends the app with the core's reason", async () => {
    const r = rig();
    const started = r.supervisor.start();
    await r.ready();
    await started;
    r.forked[0]!.says({ t: 'storageFailed', failure });
    r.forked[0]!.exits(STORAGE_FAILED_EXIT_CODE);
    await r.tick();
    r.forked[1]!.says({ t: 'failed', message: 'disk I/O error', logFile: null });
    await r.tick();
    expect(r.gaveUp.map((g) => g.err.message)).toEqual(['disk I/O error']);
  });

  it('a core that exits while the app quits is not started again', async () => {
    const r = rig();
    const started = r.supervisor.start();
    await r.ready();
    await started;
    r.supervisor.quitting();
    r.forked[0]!.exits(0);
    await r.tick();
    expect(r.forked).toHaveLength(1);
  });
});
