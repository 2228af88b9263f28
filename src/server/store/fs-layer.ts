import * as fsn from 'node:fs';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Every file-system call of the local server (store snapshot, journal, backups, temp
 * cleanup, lock file, rate-limit counters), behind one small interface so that tests can
 * inject failures (ENOSPC, EIO) at any step. Nothing under src/server imports node:fs
 * itself (test/architecture/fs-layer.test.ts keeps it so).
 */
export interface StoreFs {
  readFile(path: string): Promise<Buffer>;
  open(path: string, flags: string, mode?: number): Promise<FileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, opts: { recursive: true }): Promise<unknown>;
  /** A hard link (backups keep the replaced snapshot's inode without copying it). */
  link(existing: string, newPath: string): Promise<void>;
  /** The names in a folder (stale temp files are found by name at open). */
  readdir(path: string): Promise<string[]>;
  /** A file's bytes in chunks (the journal is replayed line by line, whatever its size). */
  readChunks(path: string): AsyncIterable<Buffer>;
  /** The free space of the file system holding `path` (readiness: a full disk, json-readiness.ts); optional for layers without it. */
  statfs?(path: string): Promise<{ bavail: number; bsize: number }>;
  /**
   * Synchronous calls: the single-writer lock is taken and released in one synchronous step
   * (no other attempt of this process can interleave with a takeover), and the rate-limit
   * counters and the store size are read while the server is built.
   */
  sync: SyncFs;
}

/** The synchronous part of the layer (see StoreFs.sync). */
export interface SyncFs {
  readFile(path: string): Buffer;
  /** Creates a file with its content (`flag: 'wx'`: only if it does not exist). */
  writeFile(path: string, data: string, opts: { mode: number; flag: string }): void;
  open(path: string, flags: string, mode?: number): number;
  write(fd: number, text: string): void;
  close(fd: number): void;
  link(existing: string, newPath: string): void;
  rename(from: string, to: string): void;
  unlink(path: string): void;
  mkdir(path: string, opts: { recursive: true }): void;
  /**
   * dev and ino: the file's identity (the journal checks that its path still names the file it
   * has open); ctimeMs: when anything about it last changed (the lock's check, lock-check.ts).
   */
  stat(path: string): { size: number; mtimeMs: number; dev?: number; ino?: number; ctimeMs?: number };
  /** Sets a file's times (the lock's heartbeat is its mtime). */
  utimes(path: string, atime: Date, mtime: Date): void;
  /** The canonical path of an existing file or folder (symlinks resolved). */
  realpath(path: string): string;
  /** A symlink's target as written in it (EINVAL when `path` is not a symlink). */
  readlink(path: string): string;
}

export interface FileHandleLike {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  /** Cuts the file back (the journal drops a failed append). */
  truncate(len: number): Promise<void>;
  close(): Promise<void>;
  /** The open file's identity (optional: a layer without it skips the journal's identity check). */
  stat?(): Promise<{ dev: number; ino: number }>;
}

export const nodeFs: StoreFs = {
  readFile: (p) => fsp.readFile(p),
  open: (p, flags, mode) => fsp.open(p, flags, mode),
  rename: (a, b) => fsp.rename(a, b),
  unlink: (p) => fsp.unlink(p),
  mkdir: (p, o) => fsp.mkdir(p, o),
  link: (a, b) => fsp.link(a, b),
  readdir: (p) => fsp.readdir(p),
  readChunks: (p) => fsn.createReadStream(p, { highWaterMark: 1024 * 1024 }),
  statfs: (p) => fsp.statfs(p),
  sync: {
    readFile: (p) => fsn.readFileSync(p),
    writeFile: (p, d, o) => fsn.writeFileSync(p, d, o),
    open: (p, flags, mode) => fsn.openSync(p, flags, mode),
    write: (fd, text) => void fsn.writeSync(fd, text),
    close: (fd) => fsn.closeSync(fd),
    link: (a, b) => fsn.linkSync(a, b),
    rename: (a, b) => fsn.renameSync(a, b),
    unlink: (p) => fsn.unlinkSync(p),
    mkdir: (p, o) => void fsn.mkdirSync(p, o),
    stat: (p) => fsn.statSync(p),
    utimes: (p, a, m) => fsn.utimesSync(p, a, m),
    realpath: (p) => fsn.realpathSync.native(p),
    readlink: (p) => fsn.readlinkSync(p),
  },
};

let tmpCounter = 0;

/**
 * Atomic replace: temp file in the same folder, (fsync), rename over the target, (fsync the
 * folder). Resolves only once all of it is done; on failure the temp file is removed and
 * the target is untouched (or, if only the folder fsync failed, already replaced).
 */
export async function atomicWrite(
  fs: StoreFs,
  path: string,
  text: string | Uint8Array,
  opts: { sync: boolean; mode?: number; onSync?: () => void },
): Promise<void> {
  const tmp = tempPathOf(path);
  let renamed = false;
  try {
    await writeTemp(fs, tmp, text, opts);
    await fs.rename(tmp, path);
    renamed = true;
    if (opts.sync) await syncDir(fs, dirname(path), opts.onSync);
  } catch (err) {
    if (!renamed) await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** A fresh temp file name in the target's folder (`.<name>.<pid>.<n>.tmp`). */
export const tempPathOf = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${++tmpCounter}.tmp`);

/** Writes (and fsyncs) a new file; the caller removes it on failure. */
export async function writeTemp(
  fs: StoreFs,
  tmp: string,
  text: string | Uint8Array,
  opts: { sync: boolean; mode?: number; onSync?: () => void },
): Promise<void> {
  const fh = await fs.open(tmp, 'w', opts.mode ?? 0o600);
  try {
    await fh.writeFile(text);
    if (opts.sync) {
      opts.onSync?.();
      await fh.sync();
    }
  } finally {
    await fh.close();
  }
}

/** fsync of a folder, so that a rename or link in it is durable. */
export async function syncDir(fs: StoreFs, dir: string, onSync?: () => void): Promise<void> {
  let dh: FileHandleLike;
  try {
    dh = await fs.open(dir, 'r');
  } catch (err) {
    // Some platforms cannot open a folder for fsync; the rename is as durable as they allow.
    if (isCode(err, 'EISDIR', 'EPERM', 'EACCES')) return;
    throw err;
  }
  try {
    onSync?.();
    await dh.sync().catch((err) => {
      if (!isCode(err, 'EINVAL', 'EISDIR', 'ENOTSUP')) throw err;
    });
  } finally {
    await dh.close();
  }
}

export const isCode = (err: unknown, ...codes: string[]) => typeof err === 'object' && err !== null && codes.includes(String((err as { code?: unknown }).code));
