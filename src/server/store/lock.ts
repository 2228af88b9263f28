import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { isCode, nodeFs } from './fs-layer.js';
import type { StoreFs, SyncFs } from './fs-layer.js';

/** Who holds a lock: its pid, since when, and what it is (`cr serve`, `cr --local`…) when it said. */
export type Holder = { pid: number; startedAt?: string; label?: string };

/** Another live process (or this one) holds the store. */
export class StoreLockedError extends Error {
  readonly code = 'STORE_LOCKED';
  constructor(
    readonly storePath: string,
    readonly holder: Holder,
    /** What the holder is, in words, and what to do; the lock's own view when not given. */
    described?: string,
  ) {
    super(
      described ??
        `${storePath} is in use by another cr server (pid ${holder.pid}${holder.startedAt ? `, since ${holder.startedAt}` : ''}); ` +
          'stop it first (one server per store file)',
    );
    this.name = 'StoreLockedError';
  }
}

export const lockPathOf = (storePath: string) => `${storePath}.lock`;

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isCode(err, 'EPERM');
  }
}

/** The lock file's text; undefined when there is none, null when it cannot be read. */
function readText(fs: SyncFs, path: string): string | null | undefined {
  try {
    return fs.readFile(path).toString('utf8');
  } catch (err) {
    if (isCode(err, 'EISDIR')) throw err; // not a lock file: never moved aside or removed
    return isCode(err, 'ENOENT') ? undefined : null;
  }
}

function parseHolder(text: string | null): Holder {
  try {
    const parsed = JSON.parse(text ?? '') as { pid?: unknown; startedAt?: unknown; label?: unknown };
    const label = typeof parsed.label === 'string' && /^cr[ a-z-]{0,40}$/.test(parsed.label) ? parsed.label : undefined;
    return { pid: Number(parsed.pid), startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : undefined, label };
  } catch {
    return { pid: NaN }; // unreadable, empty or garbled: treated as stale
  }
}

function readHolder(fs: SyncFs, lockPath: string): Holder | undefined {
  const text = readText(fs, lockPath);
  return text === undefined ? undefined : parseHolder(text);
}

/** A fresh name next to the lock, for a temp or set-aside file (same folder: link/rename stay on one filesystem). */
const sidePath = (lockPath: string, kind: 'tmp' | 'aside') =>
  `${lockPath}.${process.pid}.${randomBytes(6).toString('hex')}.${kind}`;

function removeQuietly(fs: SyncFs, path: string): void {
  try {
    fs.unlink(path);
  } catch {
    /* already gone, or nothing more to do */
  }
}

// Filesystems without hard links (FAT, some network and container mounts) answer link() with these.
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'];

/**
 * Puts `file` (holding `text`) in place as the lock, only if there is none: false when
 * one exists. link() never replaces and the lock appears complete, so no one can read it
 * half-written and take it for stale. Without hard links: O_EXCL create, then write.
 */
function placeLock(fs: SyncFs, file: string, text: string, lockPath: string): boolean {
  try {
    fs.link(file, lockPath);
    return true;
  } catch (err) {
    if (isCode(err, 'EEXIST')) return false;
    if (!isCode(err, ...NO_LINKS)) throw err;
  }
  let fd: number;
  try {
    fd = fs.open(lockPath, 'wx', 0o600);
  } catch (err) {
    if (isCode(err, 'EEXIST')) return false;
    throw err;
  }
  try {
    fs.write(fd, text);
  } catch (err) {
    removeQuietly(fs, lockPath); // an empty lock would only be taken over later
    throw err;
  } finally {
    fs.close(fd);
  }
  return true;
}

function createLock(fs: SyncFs, lockPath: string, token: string): boolean {
  const tmp = sidePath(lockPath, 'tmp');
  try {
    fs.writeFile(tmp, token, { mode: 0o600, flag: 'wx' });
    return placeLock(fs, tmp, token, lockPath);
  } finally {
    removeQuietly(fs, tmp);
  }
}

/**
 * Deletes `path` if it still reads `expected`, else leaves it (as far as it can): rename()
 * moves exactly one file aside, which is then checked, and one that changed meanwhile is put
 * back (if that fails, another process has made a new one in the gap).
 */
function removeIfUnchanged(fs: SyncFs, path: string, expected: string | null): void {
  const aside = sidePath(path, 'aside');
  try {
    fs.rename(path, aside);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return; // someone else removed it
    throw err;
  }
  try {
    const text = readText(fs, aside);
    if (text !== expected && text !== undefined) placeLock(fs, aside, text ?? '', path);
  } finally {
    removeQuietly(fs, aside);
  }
}

// A takeover guard lives for microseconds; one this old belongs to a hung or reused pid.
const GUARD_MAX_AGE_MS = 10_000;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function olderThan(fs: SyncFs, path: string, ms: number): boolean {
  try {
    return Date.now() - fs.stat(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

/**
 * Removes the lock judged stale (`staleText`), holding `<lock>.takeover` meanwhile. Several
 * processes may judge the same stale lock at once; without the guard a slow one could move
 * aside the lock the fastest just made, leaving a gap a third one fills: two holders. Under
 * the guard only the stale lock itself is ever removed. A guard whose holder died (killed
 * mid-takeover) is removed in turn; while a live one holds it, this waits a moment.
 */
function takeOver(fs: SyncFs, lockPath: string, staleText: string | null, token: string): void {
  const guard = `${lockPath}.takeover`;
  if (!createLock(fs, guard, token)) {
    const text = readText(fs, guard);
    if (text === undefined) return;
    const pid = parseHolder(text).pid;
    const dead = !Number.isNaN(pid) && !pidAlive(pid); // an empty guard may still be being written
    if (dead || olderThan(fs, guard, GUARD_MAX_AGE_MS)) removeIfUnchanged(fs, guard, text);
    else pause(5);
    return;
  }
  try {
    // Read again under the guard: another process may have replaced it since it was judged.
    if (readText(fs, lockPath) === staleText) removeIfUnchanged(fs, lockPath, staleText);
  } finally {
    if (readText(fs, guard) === token) removeQuietly(fs, guard);
  }
}

/**
 * Single-writer lock: `<store>.lock`, created complete (temp file, then link), holding pid
 * and start time (and what holds it: `label`, e.g. "cr serve"). A lock whose pid is not alive is stale and taken over. Returns the
 * release function. All of it goes through the fs layer (`storeFs.sync`).
 */
export function acquireLock(storePath: string, storeFs: StoreFs = nodeFs, label?: string): () => void {
  const fs = storeFs.sync;
  const lockPath = lockPathOf(storePath);
  fs.mkdir(dirname(lockPath), { recursive: true });
  const token = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), store: storePath, label });
  // Bounded: a pass wins, meets a live holder, makes progress on a stale lock, or waits 5 ms
  // while another process takes it over.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (createLock(fs, lockPath, token)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFile(lockPath).toString('utf8') === token) fs.unlink(lockPath);
        } catch {
          /* already gone */
        }
      };
    }
    const text = readText(fs, lockPath);
    if (text === undefined) continue; // released (or being taken over) meanwhile: try again
    const holder = parseHolder(text);
    if (pidAlive(holder.pid)) throw new StoreLockedError(storePath, holder);
    takeOver(fs, lockPath, text, token);
  }
  throw new StoreLockedError(storePath, readHolder(fs, lockPath) ?? { pid: NaN });
}
