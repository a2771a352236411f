#!/usr/bin/env python3
"""
A lossy FUSE file system for the power-cut test (test/integration/station/powerCut.test.ts).

    lossyfs.py BACKING MOUNTPOINT     mounts, prints `ready` once the kernel is connected, runs
                                      in the foreground until unmounted or killed
    lossyfs.py --probe                mounts a scratch folder, writes, fsyncs and reads through it,
                                      unmounts; exit 0, else prints the reason on one line, exit 1

A passthrough over BACKING that behaves like a disk behind a volatile write cache:
  - data writes (write, truncate) go into an in-memory overlay per file (per backing inode, so a
    rename or an unlink keeps it with its file); reads and getattr see the overlay over the
    backing file;
  - fsync / fdatasync write that file's overlay through to the backing file and os.fsync it;
    flush (a close) and release are NOT a sync: the data stays in the overlay;
  - metadata operations (create, unlink, rename, mkdir, rmdir, chmod, utimens...) go straight
    to the backing folder. A real power cut can lose those too unless the directory was synced;
    SQLite fsyncs the directory where it needs it, so this model is kinder there, not harsher.
A power cut: SIGKILL this process (every overlay is gone with it), lazy-unmount the mount point
(`fusermount3 -uz` or `umount -l`), mount a fresh instance on the same backing folder: what it
shows is what was synced.

No direct_io, so the kernel's page cache serves mmap (SQLite's WAL index, the `-shm` file, is
mmapped; its writes come back here as ordinary writes and are never synced, as on a real disk
the -shm is rebuilt from the WAL after a cut). Locks (fcntl) are not implemented here, so the
kernel keeps them locally for the mount, which is what SQLite needs within one machine.
Uses fusepy (Debian: python3-fusepy, over libfuse2) with the system python3.

A failing disk on demand (test/integration/station/storageFailure.test.ts): with the environment
variable LOSSYFS_FAIL_FLAG naming a file (outside the mount), every write, truncate, fsync,
create, mkdir, rename and unlink fails while that file exists, with the errno named in it (EIO
when empty; ENOSPC for a full disk). Reads go on working, as on a disk whose writes fail.
"""
import errno
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time

try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's python3-fusepy
except ImportError:  # pip's fusepy
    from fuse import FUSE, FuseOSError, Operations  # type: ignore

BS = 4096
INF = float('inf')


class Overlay:
    """Unsynced data of one file: whole blocks, the logical size and the lowest truncation."""

    def __init__(self, size):
        self.size = size
        self.trunc = INF  # backing bytes at or past this offset read as zero (truncated away)
        self.blocks = {}

    def base_block(self, fd, idx):
        data = bytearray(os.pread(fd, BS, idx * BS))
        if len(data) < BS:
            data.extend(b'\0' * (BS - len(data)))
        cut = self.trunc - idx * BS
        if cut < BS:
            cut = max(0, int(cut))
            data[cut:] = b'\0' * (BS - cut)
        return data

    def read(self, fd, off, n):
        end = min(off + n, self.size)
        if off >= end:
            return b''
        out = bytearray()
        for idx in range(off // BS, (end - 1) // BS + 1):
            blk = self.blocks.get(idx)
            if blk is None:
                blk = self.base_block(fd, idx)
            lo = max(off, idx * BS) - idx * BS
            hi = min(end, (idx + 1) * BS) - idx * BS
            out += blk[lo:hi]
        return bytes(out)

    def write(self, fd, data, off):
        pos = 0
        while pos < len(data):
            at = off + pos
            idx, inner = divmod(at, BS)
            blk = self.blocks.get(idx)
            if blk is None:
                blk = self.blocks[idx] = self.base_block(fd, idx)
            take = min(BS - inner, len(data) - pos)
            blk[inner:inner + take] = data[pos:pos + take]
            pos += take
        self.size = max(self.size, off + len(data))

    def truncate(self, length):
        if length < self.size:
            self.trunc = min(self.trunc, length)
            keep = (length + BS - 1) // BS
            for idx in [i for i in self.blocks if i >= keep]:
                del self.blocks[idx]
            idx, inner = divmod(length, BS)
            if inner and idx in self.blocks:
                self.blocks[idx][inner:] = b'\0' * (BS - inner)
        self.size = length

    def write_through(self, fd):
        if self.trunc < os.fstat(fd).st_size:
            os.ftruncate(fd, int(self.trunc))
        for idx in sorted(self.blocks):
            n = min(BS, self.size - idx * BS)
            if n > 0:
                os.pwrite(fd, bytes(self.blocks[idx][:n]), idx * BS)
        os.ftruncate(fd, self.size)
        os.fsync(fd)


FAIL_FLAG = os.environ.get('LOSSYFS_FAIL_FLAG')


def failing():
    """Raises the errno the fail flag names while it exists (see the module's doc)."""
    if not FAIL_FLAG:
        return
    try:
        with open(FAIL_FLAG) as f:
            name = f.read().strip() or 'EIO'
    except FileNotFoundError:
        return
    raise FuseOSError(getattr(errno, name, errno.EIO))


class LossyFS(Operations):
    use_ns = True

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self._mu = threading.RLock()
        self.overlays = {}  # backing inode -> Overlay
        self.fds = {}  # fh -> (backing fd, inode)
        self.next_fh = 1

    def _full(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    def init(self, path):
        sys.stdout.write('ready\n')
        sys.stdout.flush()

    # ---------------------------------------------------------------- metadata: straight through

    def access(self, path, amode):
        if not os.access(self._full(path), amode):
            raise FuseOSError(errno.EACCES)

    def getattr(self, path, fh=None):
        with self._mu:
            try:
                st = os.lstat(self._full(path))
            except OSError as e:
                raise FuseOSError(e.errno)
            attrs = {k: getattr(st, k) for k in ('st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_size', 'st_ino')}
            attrs['st_atime'] = st.st_atime_ns
            attrs['st_mtime'] = st.st_mtime_ns
            attrs['st_ctime'] = st.st_ctime_ns
            ov = self.overlays.get(st.st_ino) if stat.S_ISREG(st.st_mode) else None
            if ov is not None:
                attrs['st_size'] = ov.size
            attrs['st_blocks'] = (attrs['st_size'] + 511) // 512
            return attrs

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._full(path))

    def readlink(self, path):
        return os.readlink(self._full(path))

    def statfs(self, path):
        s = os.statvfs(self._full(path))
        return {k: getattr(s, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}

    def mkdir(self, path, mode):
        failing()
        os.mkdir(self._full(path), mode)

    def rmdir(self, path):
        os.rmdir(self._full(path))

    def chmod(self, path, mode):
        os.chmod(self._full(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._full(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._full(path), ns=times) if times else os.utime(self._full(path))

    def symlink(self, target, source):
        os.symlink(source, self._full(target))

    def link(self, target, source):
        os.link(self._full(source), self._full(target))

    def _forget_if_gone(self, ino):
        if ino in self.overlays and not any(i == ino for _, i in self.fds.values()):
            del self.overlays[ino]

    def unlink(self, path):
        failing()
        with self._mu:
            full = self._full(path)
            st = os.lstat(full)
            os.unlink(full)
            if st.st_nlink <= 1:
                self._forget_if_gone(st.st_ino)

    def rename(self, old, new):
        failing()
        with self._mu:
            try:
                replaced = os.lstat(self._full(new))
            except OSError:
                replaced = None
            os.rename(self._full(old), self._full(new))
            if replaced is not None and replaced.st_nlink <= 1:
                self._forget_if_gone(replaced.st_ino)

    # ---------------------------------------------------------------- files: data in the overlay

    def _open(self, full, flags, mode=None):
        # The backing fd only reads and writes through at fsync; O_TRUNC / O_APPEND are the
        # kernel's and the overlay's business (the kernel sends a truncate, and append offsets).
        fd = os.open(full, os.O_RDWR | (flags & os.O_CREAT), *([mode] if mode is not None else []))
        ino = os.fstat(fd).st_ino
        with self._mu:
            fh = self.next_fh
            self.next_fh += 1
            self.fds[fh] = (fd, ino)
        if flags & os.O_TRUNC:
            self.truncate(None, 0, fh)
        return fh

    def open(self, path, flags):
        return self._open(self._full(path), flags)

    def create(self, path, mode, fi=None):
        failing()
        return self._open(self._full(path), os.O_CREAT, mode)

    def read(self, path, size, offset, fh):
        with self._mu:
            fd, ino = self.fds[fh]
            ov = self.overlays.get(ino)
            return ov.read(fd, offset, size) if ov else os.pread(fd, size, offset)

    def write(self, path, data, offset, fh):
        failing()
        with self._mu:
            fd, ino = self.fds[fh]
            ov = self.overlays.get(ino)
            if ov is None:
                ov = self.overlays[ino] = Overlay(os.fstat(fd).st_size)
            ov.write(fd, data, offset)
            return len(data)

    def truncate(self, path, length, fh=None):
        failing()
        with self._mu:
            if fh is not None and fh in self.fds:
                fd, ino = self.fds[fh]
                own = None
            else:
                fd = own = os.open(self._full(path), os.O_RDWR)
                ino = os.fstat(fd).st_ino
            try:
                ov = self.overlays.get(ino)
                if ov is None:
                    ov = self.overlays[ino] = Overlay(os.fstat(fd).st_size)
                ov.truncate(length)
            finally:
                if own is not None:
                    os.close(own)

    def flush(self, path, fh):
        return 0  # a close is not a sync

    def fsync(self, path, datasync, fh):
        failing()
        with self._mu:
            fd, ino = self.fds[fh]
            ov = self.overlays.pop(ino, None)
            if ov is not None:
                ov.write_through(fd)
            else:
                os.fsync(fd)
        return 0

    def fsyncdir(self, path, datasync, fh):
        return 0  # directory entries are written through already

    def release(self, path, fh):
        with self._mu:
            fd, ino = self.fds.pop(fh)
            try:
                gone = os.fstat(fd).st_nlink == 0
            finally:
                os.close(fd)
            if gone:
                self._forget_if_gone(ino)
        return 0


def probe():
    """Mount a scratch folder, use it, unmount: the one-line reason when FUSE does not work here."""
    top = tempfile.mkdtemp(prefix='lossyfs-probe-')
    backing, mnt = os.path.join(top, 'backing'), os.path.join(top, 'mnt')
    os.mkdir(backing)
    os.mkdir(mnt)
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), backing, mnt], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 10
        while not os.path.ismount(mnt):
            if proc.poll() is not None:
                err = (proc.stderr.read() or '').strip().splitlines()
                return 'mounting failed: ' + (err[-1] if err else f'exit {proc.returncode}')
            if time.time() > deadline:
                return 'mounting timed out'
            time.sleep(0.05)
        with open(os.path.join(mnt, 'f'), 'wb') as f:
            f.write(b'synced')
            f.flush()
            os.fsync(f.fileno())
        with open(os.path.join(backing, 'f'), 'rb') as f:
            if f.read() != b'synced':
                return 'fsync did not write through to the backing folder'
        return None
    except OSError as e:
        return f'using the mount failed: {e}'
    finally:
        unmount(mnt)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        subprocess.run(['rm', '-rf', top], check=False)


def unmount(mnt):
    for cmd in (['fusermount3', '-uz', mnt], ['umount', '-l', mnt]):
        try:
            if subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                return True
        except FileNotFoundError:
            pass
    return False


if __name__ == '__main__':
    if sys.argv[1:] == ['--probe']:
        why = probe()
        print(why or 'ok')
        sys.exit(1 if why else 0)
    if len(sys.argv) != 3:
        sys.exit('usage: lossyfs.py BACKING MOUNTPOINT | --probe')
    FUSE(LossyFS(sys.argv[1]), sys.argv[2], foreground=True, nothreads=False, big_writes=True, fsname='lossyfs', subtype='lossyfs')
