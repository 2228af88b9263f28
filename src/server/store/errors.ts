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

/** A commit failed (ENOSPC, EIO…); nothing was acknowledged and memory rolled back. The app answers 503. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(options?: { cause?: unknown }) {
    super('Store unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}

/** A write would take the store past its size cap (docs/api-decisions.md §9); nothing was written. The app answers 507. */
export class StoreFullError extends Error {
  readonly code = 'STORE_FULL';
  constructor(readonly maxBytes: number) {
    super('Store is full');
    this.name = 'StoreFullError';
  }
}
