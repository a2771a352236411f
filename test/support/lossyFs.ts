/**
 * Mounts test/support/lossyfs.py (a FUSE file system that keeps written data in memory until
 * fsync, see there) and cuts its power. Ask `needs('fuse')` (services.ts) first.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { lossyFsPython, lossyFsScript } from './services';

export interface LossyMount {
  backing: string;
  mountPoint: string;
  /** The power cut: SIGKILL the file system (every unsynced write is gone), lazy unmount. */
  cut(): Promise<void>;
  /** A clean unmount (still nothing unsynced is written). */
  unmount(): Promise<void>;
  stderr(): string;
  /**
   * The disk fails from now on: every write, fsync, create, rename and unlink answers `errno`
   * (EIO: an I/O error; ENOSPC: a full disk), reads go on; null heals it. Needs `failFlag` at mount.
   */
  failWrites(errno: 'EIO' | 'ENOSPC' | 'EROFS' | null): void;
}

function lazyUnmount(mountPoint: string): void {
  for (const [cmd, args] of [
    ['fusermount3', ['-uz', mountPoint]],
    ['umount', ['-l', mountPoint]],
  ] as const) {
    if (spawnSync(cmd, args, { stdio: 'ignore' }).status === 0) return;
  }
}

/** Mounts `backing` at `mountPoint` (both existing folders); resolves once the kernel is connected. */
/** `failFlag`: a file path outside the mount that switches failing writes on (failWrites). */
export async function mountLossyFs(
  backing: string,
  mountPoint: string,
  opts: { failFlag?: string } = {},
): Promise<LossyMount> {
  const proc: ChildProcessByStdio<null, Readable, Readable> = spawn(
    lossyFsPython(),
    [lossyFsScript, backing, mountPoint],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(opts.failFlag ? { LOSSYFS_FAIL_FLAG: opts.failFlag } : {}) },
    },
  );
  let err = '';
  proc.stderr.on('data', (d: Buffer) => {
    err = (err + d.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`lossyfs did not mount ${mountPoint} in 10 s: ${err}`)), 10_000);
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`lossyfs exited (${code}) before mounting ${mountPoint}: ${err}`));
    });
  });
  let gone = false;
  return {
    backing,
    mountPoint,
    stderr: () => err,
    failWrites(errno) {
      if (!opts.failFlag) throw new Error('mountLossyFs: failWrites needs a failFlag');
      if (errno) writeFileSync(opts.failFlag, errno);
      else rmSync(opts.failFlag, { force: true });
    },
    async cut() {
      if (gone) return;
      gone = true;
      proc.kill('SIGKILL');
      await exited;
      lazyUnmount(mountPoint);
    },
    async unmount() {
      if (gone) return;
      gone = true;
      if (spawnSync('fusermount3', ['-u', mountPoint], { stdio: 'ignore' }).status !== 0) lazyUnmount(mountPoint);
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
