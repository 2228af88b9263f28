import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { LocalError } from '../errors.js';

/** How long a lock file is trusted without its holder alive to vouch for it. */
const STALE_MS = 10_000;
/** How long a writer waits for another to finish before giving up (exit 1). */
const WAIT_MS = 10_000;

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A lock left by a process that is gone, or older than any write takes. */
function stale(path: string): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
      }
    }
    return Date.now() - statSync(path).mtimeMs > STALE_MS;
  } catch {
    // Gone meanwhile: the next attempt takes it.
    return false;
  }
}

/**
 * Runs `work` while holding `path` (created with O_EXCL, 0600, holding this pid), so that the
 * read-change-write of a small file (config.json, src/config/profiles.ts) is one step among
 * processes. Synchronous, as its callers are: the commands' profile writes are a few
 * milliseconds. A lock whose holder is gone, or one older than 10 s, is taken over.
 * Why not proper-lockfile: its synchronous lock does not wait for a holder.
 */
export function withFileLock<T>(path: string, work: () => T): T {
  const until = Date.now() + WAIT_MS;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (stale(path)) {
        rmSync(path, { force: true });
        continue;
      }
      if (Date.now() > until) {
        throw new LocalError(`${path} is held by another cr process; try again, or remove the file if no cr is running`, 1, { code: 'CONFIG_LOCKED' });
      }
      pause(5 + Math.floor(Math.random() * 20));
    }
  }
  try {
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return work();
  } finally {
    rmSync(path, { force: true });
  }
}
