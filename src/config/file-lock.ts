import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { LocalError } from '../errors.js';

/** How long a lock file is trusted without its holder alive to vouch for it. */
const STALE_MS = 10_000;
/** How long a writer waits for another to finish before giving up (exit 1). */
const WAIT_MS = 10_000;
/**
 * The takeover guard is held for a few system calls; one older than this, or whose pid is
 * gone, was left by a process killed between them.
 */
const GUARD_STALE_MS = 2_000;

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

let counter = 0;
/** What this process writes in a lock: its pid, then a mark no other lock file carries. */
const newToken = () => `${process.pid} ${Date.now().toString(36)}.${(++counter).toString(36)}.${Math.random().toString(36).slice(2, 10)}`;

/** The text of the lock and its age; undefined when it is gone (or unreadable: then the next attempt decides). */
function look(path: string): { text: string; ageMs: number } | undefined {
  try {
    const fd = openSync(path, 'r');
    try {
      const text = readFileSync(fd, 'utf8');
      return { text, ageMs: Date.now() - fstatSync(fd).mtimeMs };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** A lock whose pid is gone (a lock of an older cr holds the pid alone), or older than `staleMs`. */
function stale(seen: { text: string; ageMs: number }, staleMs: number): boolean {
  const pid = Number(seen.text.split(' ')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  } else if (seen.ageMs > 1_000) {
    return true; // empty or garbled, and not just being written
  }
  return seen.ageMs > staleMs;
}

/** Creates `path` (O_EXCL, 0600) holding `token`; false when it exists. */
function create(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes the guard of a process killed mid-takeover. No system call removes a file only if
 * it still holds a given text, so it is renamed to a name of this process's own (one rename
 * wins), checked, and put back by link() when it turns out to be a fresh guard after all.
 */
function breakGuard(guard: string, seenText: string): void {
  const aside = `${guard}.${process.pid}.${(++counter).toString(36)}.aside`;
  try {
    renameSync(guard, aside);
  } catch {
    return; // gone meanwhile
  }
  if (readFileSync(aside, 'utf8') !== seenText) {
    try {
      linkSync(aside, guard);
    } catch {
      // A newer guard is already there: the one moved aside is its holder's to miss.
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Runs `step` holding `${path}.takeover`: the only place a lock file is removed, by its
 * holder (release) or by a process that found it stale (takeover). With every removal under
 * the guard, the lock read and judged here is the one removed: a fresh lock cannot appear in
 * its place meanwhile (O_EXCL creation needs the name free). Returns false when another
 * process holds the guard (the caller tries again).
 */
function underGuard(path: string, step: () => void): boolean {
  const guard = `${path}.takeover`;
  const token = newToken();
  if (!create(guard, token)) {
    const seen = look(guard);
    if (seen && stale(seen, GUARD_STALE_MS)) breakGuard(guard, seen.text);
    return false;
  }
  try {
    step();
  } finally {
    if (look(guard)?.text === token) rmSync(guard, { force: true });
  }
  return true;
}

/**
 * Runs `work` while holding `path` (created with O_EXCL, 0600, holding this pid and a token
 * of its own), so that the read-change-write of a small file (config.json, src/config/profiles.ts)
 * is one step among processes. Synchronous, as its callers are: a profile write takes a few
 * milliseconds. A lock whose holder is gone, or one older than 10 s, is taken over; the lock
 * removed is always the one judged, and a process removes only its own lock when it is done
 * (docs/reliability.md "Small files").
 *
 * Why not proper-lockfile: its stale takeover is stat, then rmdir: a process that judged a
 * lock stale removes the fresh lock another took meanwhile (moxystudio/node-proper-lockfile
 * issue 121, open), the very loss this lock exists to prevent; and its synchronous lock does
 * not wait for a holder.
 */
export function withFileLock<T>(path: string, work: () => T): T {
  const until = Date.now() + WAIT_MS;
  const token = newToken();
  while (!create(path, token)) {
    const seen = look(path);
    if (seen && stale(seen, STALE_MS)) {
      const ran = underGuard(path, () => {
        const now = look(path);
        if (now && now.text === seen.text && stale(now, STALE_MS)) rmSync(path, { force: true });
      });
      if (!ran) pause(1 + Math.floor(Math.random() * 5)); // another process is taking over: let it finish
      continue;
    }
    if (Date.now() > until) {
      throw new LocalError(`${path} is held by another cr process; try again, or remove the file if no cr is running`, 1, { code: 'CONFIG_LOCKED' });
    }
    pause(5 + Math.floor(Math.random() * 20));
  }
  try {
    return work();
  } finally {
    release(path, token);
  }
}

/** Removes the lock if it is still this process's (one held too long may have been taken over). */
function release(path: string, token: string): void {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const done = underGuard(path, () => {
      if (look(path)?.text === token) rmSync(path, { force: true });
    });
    if (done || Date.now() > until) return;
    pause(1 + Math.floor(Math.random() * 5));
  }
}
