import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { isCode, nodeFs } from './fs-layer.js';
import type { StoreFs, SyncFs } from './fs-layer.js';
import { heartbeatOf, judge, lockTimingFromEnv, pidAlive, processIdentity, sameNamespace } from './lock-liveness.js';
import { lockHeld } from './lock-check.js';

import type { Holder } from './lock-liveness.js';

export { processIdentity } from './lock-liveness.js';
export type { Holder } from './lock-liveness.js';

/** Another live process (or this one) holds the store. */
export class StoreLockedError extends Error {
  readonly code = 'STORE_LOCKED';
  constructor(
    readonly storePath: string,
    readonly holder: Holder,
    elsewhere = false,
    /** What the holder is, in words, and what to do; the lock's own view when not given. */
    described?: string,
  ) {
    super(
      described ??
        `${storePath} is in use by another cr server (pid ${holder.pid}${elsewhere ? ' in another pid namespace' : ''}${holder.startedAt ? `, since ${holder.startedAt}` : ''}); ` +
          'stop it first (one server per store file)',
    );
    this.name = 'StoreLockedError';
  }
}

/**
 * The lock exists but cannot be read (EACCES, EIO, EMFILE…): whether its holder lives is
 * unknown, so it is neither taken over nor removed (docs/reliability.md "The store's lock").
 */
export class LockUnreadableError extends Error {
  readonly code = 'STORE_LOCK_UNREADABLE';
  constructor(
    readonly storePath: string,
    readonly lockPath: string,
    cause: unknown,
  ) {
    const errno = (cause as { code?: unknown }).code;
    super(
      errno === 'EISDIR'
        ? `the lock ${lockPath} is a directory, not a lock file; it is left alone: remove it (rmdir) if no cr server uses this store, then try again`
        : `cannot read the lock ${lockPath} (${typeof errno === 'string' ? errno : (cause as Error).message}); ` +
            'a running server may hold it, so it is left alone: make it readable by this user (or stop the server that holds it), then try again',
      { cause },
    );
    this.name = 'LockUnreadableError';
  }
}

export const lockPathOf = (storePath: string) => `${storePath}.lock`;

/** The lock's text, undefined when there is none; an unreadable lock throws LockUnreadableError. */
function readLockText(fs: SyncFs, storePath: string, lockPath: string): string | undefined {
  try {
    return fs.readFile(lockPath).toString('utf8');
  } catch (err) {
    if (isCode(err, 'ENOENT')) return undefined;
    throw new LockUnreadableError(storePath, lockPath, err); // a directory too: never moved aside or removed
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

/**
 * The lock's text as its holder checks it (heartbeat, commit): something else in its place,
 * a directory too, is not this holder's lock any more (the store was lost), never a throw out
 * of a timer that would stop the server outright.
 */
function heldText(fs: SyncFs, path: string): string | null | undefined {
  try {
    return readText(fs, path);
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function parseHolder(text: string | null): Holder {
  try {
    const parsed = JSON.parse(text ?? '') as Record<string, unknown>;
    const label = typeof parsed.label === 'string' && /^cr[ a-z-]{0,40}$/.test(parsed.label) ? parsed.label : undefined;
    return {
      pid: Number(parsed.pid),
      startedAt: str(parsed.startedAt),
      pidNs: str(parsed.pidNs),
      bootId: str(parsed.bootId),
      pidStart: str(parsed.pidStart),
      label,
    };
  } catch {
    return { pid: NaN }; // unreadable, empty or garbled: treated as stale
  }
}

function readHolder(fs: SyncFs, lockPath: string): Holder | undefined {
  const text = readText(fs, lockPath);
  return text === undefined ? undefined : parseHolder(text);
}

/** A fresh name next to the lock, for a temp or set-aside file (same folder: link/rename stay on one filesystem). */
const sidePath = (lockPath: string, kind: 'tmp' | 'aside') => `${lockPath}.${process.pid}.${randomBytes(6).toString('hex')}.${kind}`;

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
 * A guard's holder died: only knowable in the same pid namespace (lock-liveness.ts); a guard
 * of another namespace is judged by its age alone. Our own pid in a guard we are not making
 * (the lock is taken in one synchronous step) is an earlier run of this pid.
 */
function guardDead(fs: SyncFs, text: string | null): boolean {
  const holder = parseHolder(text);
  if (Number.isNaN(holder.pid) || !sameNamespace(fs, holder)) return false; // an empty guard may still be being written
  return holder.pid === process.pid || !pidAlive(fs, holder.pid);
}

/**
 * Removes the lock judged stale (`staleText`, last heartbeat `staleBeat`), holding
 * `<lock>.takeover` meanwhile. Several processes may judge the same stale lock at once;
 * without the guard a slow one could move aside the lock the fastest just made, leaving a
 * gap a third one fills: two holders. Under the guard only the stale lock itself is ever
 * removed (same text, heartbeat not moved since it was judged). A guard whose holder died
 * (killed mid-takeover) is removed in turn; while a live one holds it, this waits a moment.
 */
function takeOver(fs: SyncFs, lockPath: string, staleText: string | null, staleBeat: number | undefined, token: string): void {
  const guard = `${lockPath}.takeover`;
  if (!createLock(fs, guard, token)) {
    const text = readText(fs, guard);
    if (text === undefined) return;
    if (guardDead(fs, text) || olderThan(fs, guard, GUARD_MAX_AGE_MS)) removeIfUnchanged(fs, guard, text);
    else pause(5);
    return;
  }
  try {
    // Read again under the guard: another process may have replaced or refreshed it since it was judged.
    if (readText(fs, lockPath) === staleText && heartbeatOf(fs, lockPath) === staleBeat) removeIfUnchanged(fs, lockPath, staleText);
  } finally {
    if (readText(fs, guard) === token) removeQuietly(fs, guard);
  }
}

export interface LockOptions {
  /** Heartbeat period and staleness (defaults HEARTBEAT_MS, STALE_MS, or CR_LOCK_STALE_MS; tests shorten them). */
  heartbeatMs?: number;
  staleMs?: number;
  /**
   * The lock was found gone or someone else's while held: this process was frozen (SIGSTOP,
   * a paused container) past STALE_MS and another server took the store over. The caller
   * must stop writing at once.
   */
  onLost?: () => void;
  /** What takes the lock, in words (`cr serve`, `cr --local`…), named to a refused process. */
  label?: string;
}

/** Tokens of the locks this process holds (a lock with our pid that is not one of them is an earlier run's). */
const held = new Set<string>();

/**
 * A lock written in another pid namespace and refreshed recently: watch its heartbeat. A live
 * holder moves it within a heartbeat period or two; one that stays still for `staleMs` (or
 * grows older than that) is dead. 'changed': the lock was replaced or removed meanwhile.
 */
function watch(fs: SyncFs, lockPath: string, text: string | null, beat: number, o: { heartbeatMs: number; staleMs: number }): 'live' | 'stale' | 'changed' {
  const since = performance.now();
  const step = Math.max(10, Math.min(100, o.heartbeatMs / 4));
  for (;;) {
    pause(step);
    const now = heartbeatOf(fs, lockPath);
    if (now === undefined || readText(fs, lockPath) !== text) return 'changed';
    if (now !== beat) return 'live';
    if (Date.now() - now > o.staleMs || performance.now() - since > o.staleMs) return 'stale';
  }
}

/** A held lock: releasing it, and asking whether it is still this process's. */
export interface LockHandle {
  (): void;
  /**
   * The lock file still holds this holder's token (read now, from the file): nobody has
   * taken the store over. False once released or lost; a read that fails counts as held.
   */
  owned(): boolean;
  /**
   * owned(), without touching the file while no one could have taken the lock over: this
   * process refreshed its heartbeat less than half the staleness ago (monotonic clock), so the
   * lock's mtime is too recent for any process to judge it stale. Past that (frozen, busy),
   * the file is checked as owned() does. For reads, where one stat() each was most of a cached
   * read's cost (docs/benchmarks-analysis.md "Reads check the lock").
   */
  ownedForReads(): boolean;
}

/**
 * Refreshes the lock's mtime while held; calls `lost` once if the lock stops being ours, and
 * `beat` with the monotonic time taken just before each refresh that worked.
 */
function startHeartbeat(fs: SyncFs, lockPath: string, token: string, every: number, lost: () => void, beat: (at: number) => void): () => void {
  const timer = setInterval(() => {
    const text = heldText(fs, lockPath);
    if (text === null) return; // unreadable for now (EIO, EMFILE): try again next beat
    if (text !== token) {
      clearInterval(timer);
      held.delete(token);
      lost();
      return;
    }
    try {
      const at = performance.now();
      const now = new Date();
      fs.utimes(lockPath, now, now);
      beat(at);
    } catch {
      /* a missed beat; STALE_MS allows for many */
    }
  }, every);
  timer.unref(); // never keeps the process alive
  return () => clearInterval(timer);
}

/**
 * Single-writer lock: `<store>.lock`, created complete (temp file, then link), holding pid,
 * start time, pid namespace, boot id and the kernel's start time of the process; its mtime is a heartbeat refreshed every second.
 * Liveness of an existing lock is judged as lock-liveness.ts says: by the pid within the same
 * pid namespace, else by the heartbeat (watched for up to `staleMs` when it is recent). A
 * stale lock is taken over. Returns the release function. All of it goes through the fs
 * layer (`storeFs.sync`).
 */
export function acquireLock(storePath: string, storeFs: StoreFs = nodeFs, opts: LockOptions = {}): LockHandle {
  const fs = storeFs.sync;
  const fromEnv = lockTimingFromEnv();
  const timing = { heartbeatMs: opts.heartbeatMs ?? fromEnv.heartbeatMs, staleMs: opts.staleMs ?? fromEnv.staleMs };
  const lockPath = lockPathOf(storePath);
  fs.mkdir(dirname(lockPath), { recursive: true });
  const token = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), store: storePath, ...processIdentity(fs), label: opts.label });
  // Bounded: a pass wins, meets a live holder, makes progress on a stale lock, or waits 5 ms
  // while another process takes it over.
  try {
    return acquireWith(fs, storePath, lockPath, token, timing, opts);
  } catch (err) {
    // A directory in place of the lock (or of its takeover guard), met while judging it.
    if (isCode(err, 'EISDIR') && !(err instanceof LockUnreadableError))
      throw new LockUnreadableError(storePath, (err as { path?: string }).path ?? lockPath, err);
    throw err;
  }
}

function acquireWith(
  fs: SyncFs,
  storePath: string,
  lockPath: string,
  token: string,
  timing: { heartbeatMs: number; staleMs: number },
  opts: LockOptions,
): LockHandle {
  for (let attempt = 0; attempt < 100; attempt++) {
    const createdAt = performance.now();
    if (createLock(fs, lockPath, token)) {
      held.add(token);
      let lastBeat = createdAt;
      const onBeat = (at: number) => {
        lastBeat = at;
      };
      const stop = startHeartbeat(fs, lockPath, token, timing.heartbeatMs, () => opts.onLost?.(), onBeat);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        stop();
        held.delete(token);
        try {
          if (fs.readFile(lockPath).toString('utf8') === token) fs.unlink(lockPath);
        } catch {
          /* already gone */
        }
      };
      const stillHeld = lockHeld(fs, lockPath, token, () => heldText(fs, lockPath));
      const owned = () => !released && held.has(token) && stillHeld();
      const ownedForReads = () => !released && held.has(token) && (performance.now() - lastBeat < timing.staleMs / 2 || stillHeld());
      return Object.assign(release, { owned, ownedForReads });
    }
    // Unreadable (EACCES, EIO, EMFILE…) is not stale: refused with the error (LockUnreadableError).
    const text = readLockText(fs, storePath, lockPath);
    const beat = heartbeatOf(fs, lockPath);
    if (text === undefined || beat === undefined) continue; // released (or being taken over) meanwhile: try again
    const holder = parseHolder(text);
    let verdict: 'live' | 'stale' | 'unknown' | 'changed' = judge(fs, holder, held.has(text), beat, timing.staleMs);
    if (verdict === 'unknown') verdict = watch(fs, lockPath, text, beat, timing);
    if (verdict === 'changed') continue;
    if (verdict === 'live') throw new StoreLockedError(storePath, holder, holder.pidNs !== undefined && !sameNamespace(fs, holder));
    takeOver(fs, lockPath, text, beat, token);
  }
  throw new StoreLockedError(storePath, readHolder(fs, lockPath) ?? { pid: NaN });
}
