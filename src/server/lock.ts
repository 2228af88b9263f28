import { closeSync, openSync, readFileSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { isCode } from './fs-layer.js';

/** Another live process (or this one) holds the store. */
export class StoreLockedError extends Error {
  readonly code = 'STORE_LOCKED';
  constructor(
    readonly storePath: string,
    readonly holder: { pid: number; startedAt?: string },
  ) {
    super(
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

function readHolder(lockPath: string): { pid: number; startedAt?: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid?: unknown; startedAt?: unknown };
    return { pid: Number(parsed.pid), startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : undefined };
  } catch (err) {
    if (isCode(err, 'ENOENT')) return undefined;
    return { pid: NaN }; // unreadable or half-written: treated as stale
  }
}

/**
 * Single-writer lock: `<store>.lock`, created with O_EXCL, holding pid and start time. A
 * lock whose pid is not alive is stale and taken over. Returns the release function.
 */
export function acquireLock(storePath: string): () => void {
  const lockPath = lockPathOf(storePath);
  mkdirSync(dirname(lockPath), { recursive: true });
  const token = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), store: storePath });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(lockPath, 'utf8') === token) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if (!isCode(err, 'EEXIST')) throw err;
      const holder = readHolder(lockPath);
      if (holder && pidAlive(holder.pid)) throw new StoreLockedError(storePath, holder);
      try {
        unlinkSync(lockPath);
      } catch (e) {
        if (!isCode(e, 'ENOENT')) throw e;
      }
    }
  }
  throw new StoreLockedError(storePath, readHolder(lockPath) ?? { pid: NaN });
}
