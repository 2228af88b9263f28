import { dirname } from 'node:path';
import { logSafe } from '../log-text.js';
import type { Store } from './store.js';
import type { StoreFs } from './fs-layer.js';
import { READY, type Readiness } from './readiness.js';

/** Less free space than this beside the store: a write may not fit (a journal line, a fold's temp file). */
export const MIN_FREE_BYTES = 1024 * 1024;
/** A failed journal append keeps the store not ready this long, unless a write works again first. */
export const WRITE_FAILURE_HOLD_MS = 30_000;

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Whether the JSON file store can serve correct data now (readiness.ts, what `GET /readyz`
 * answers; docs/reliability.md "The store's lock"): its lock still holds this server's token
 * (read again when stat() says it may have changed, lock-check.ts), its folder has room for a
 * write, and its last journal append did not fail lately. The data itself is known once the
 * store is open (parsed and replayed). A failed append does not keep it not ready for good:
 * a balancer that routes nothing to it would never let a write prove it fixed; the free space
 * is read again on every call.
 */
export async function jsonStoreReadiness(file: Store, fs: StoreFs, now = Date.now()): Promise<Readiness> {
  const where = logSafe(file.path ?? '(memory)');
  if (!file.stillOwned(true)) {
    return {
      ready: false,
      cause: 'lock_lost',
      reason: `the lock on ${where} was taken over by another cr process; this server no longer answers from the store and stops`,
    };
  }
  if (file.path === null) return READY;
  const failed = file.stats().writeFailure;
  const free = await freeBytes(fs, dirname(file.path));
  if (free !== undefined && free < MIN_FREE_BYTES) {
    return { ready: false, cause: 'disk_full', reason: `${free} bytes free beside ${where}; free some space (writes would fail)` };
  }
  if (failed && now - failed.at < WRITE_FAILURE_HOLD_MS) {
    return DISK_FULL.has(failed.code)
      ? { ready: false, cause: 'disk_full', reason: `the last write to ${where} failed (${failed.code}): the disk is full; free some space` }
      : { ready: false, cause: 'write_failed', reason: `the last write to ${where} failed (${logSafe(failed.code, 32)}); check the disk and its file system` };
  }
  return READY;
}

/** Bytes an unprivileged writer may still use in `dir`; undefined where statfs() cannot tell. */
async function freeBytes(fs: StoreFs, dir: string): Promise<number | undefined> {
  try {
    const s = await fs.statfs?.(dir);
    if (!s) return undefined;
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}
