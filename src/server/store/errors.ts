import type { UnavailableCause } from './readiness.js';

/** The store file cannot be used: empty, corrupt or invalid. It is never overwritten. */
export class StoreError extends Error {
  readonly code = 'STORE_INVALID';
  constructor(
    readonly storePath: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${storePath}: ${detail}`, options);
    this.name = 'StoreError';
  }
}

/**
 * The store cannot answer correctly now (a commit failed on ENOSPC or EIO and memory rolled
 * back, the database is gone, the lock was lost): nothing was acknowledged. The app answers
 * 503 and names `why` (readiness.ts) in the answer and the log.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  readonly why: UnavailableCause;
  constructor(options?: { cause?: unknown; why?: UnavailableCause }) {
    super('Store unavailable', options);
    this.name = 'StoreUnavailableError';
    this.why = options?.why ?? 'write_failed';
  }
}

/** The 503 of a store another server took over (cause lock_lost): writes and, on a JSON store, reads (json-store.ts). */
export const takenOver = () => new StoreUnavailableError({ why: 'lock_lost', cause: new Error('the store was taken over by another server') });

/** Why a write that failed on the disk failed, as a 503 names it: a full disk (or quota), else a write error. */
export const writeFailureCause = (err: unknown): UnavailableCause =>
  ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException)?.code ?? '') ? 'disk_full' : 'write_failed';

/** A write would take the store past its size cap (docs/api-decisions.md §9); nothing was written. The app answers 507. */
export class StoreFullError extends Error {
  readonly code = 'STORE_FULL';
  constructor(readonly maxBytes: number) {
    super('Store is full');
    this.name = 'StoreFullError';
  }
}
