import type { Operations } from './app/operation-types.js';
import type { Clock, RealClock } from './domain/clock.js';
import type { Store, OpenStoreOptions } from './store/store.js';
import type { StoreFs } from './store/fs-layer.js';

// The options and result of opening the server's operations (open-core.ts), apart so that the
// database's opener (open-db-core.ts) shares them without an import circle.

/** What the server's request pipeline needs, whatever carries the requests to it. */
export interface OpenCoreOptions {
  storePath?: string;
  rateLimit?: number;
  /** Business clock; default from CR_NOW, else the system clock. */
  clock?: Clock;
  /** Real clock of the rate-limit window (tests only). */
  realClock?: RealClock;
  fs?: StoreFs;
  /** Journal fold thresholds and backups kept (tests; defaults in Store.open). */
  storeOptions?: Pick<OpenStoreOptions, 'journalMaxBytes' | 'journalMaxRecords' | 'backups' | 'initial' | 'lockTiming' | 'onGroupCommit'>;
  /** Size cap of the store in MiB (docs/api-decisions.md §9, `--max-store-mb`; default 256). */
  maxStoreMb?: number;
  /** Lines about the store (a fold failing, then working again, the lock lost) and internal errors. */
  notice: (line: string) => void;
  onInternalError?: (err: unknown) => void;
  /** What holds the store's lock, in words ("cr serve", "cr --local"): named to a refused process. */
  lockLabel?: string;
  /** How a PostgreSQL store is opened (`cr serve --pool`, `--no-migrate`; docs/shared-sandbox.md). */
  database?: DatabaseOpenOptions;
  /**
   * The store stopped being this server's for good (its lock was taken over while it was
   * frozen): every request is refused from then on; `cr serve` drains and exits 1 so that a
   * supervisor restarts it (docs/reliability.md "The store's lock"). Called once, after the notice.
   */
  onStoreLost?: () => void;
}

/** The options of a PostgreSQL store that `cr serve` sets (src/server/store-pg/pg-store.ts PgStoreOptions). */
export interface DatabaseOpenOptions {
  /** The command's environment, for the libpq variables (PGPASSWORD, PGSSLMODE…). */
  env?: NodeJS.ProcessEnv;
  /** Connections for records (`--pool`); the rate-limit pool gets half as many. */
  pool?: number;
  /** 'check' for `--no-migrate`. */
  schema?: 'apply' | 'check';
}

/** The open store under its lock, its rate limiter, and the pipeline over both. */
export interface OpenCore {
  storePath: string;
  /** The store file itself (its stats and compaction, for tests); none for a database. The pipeline reads `operations.store`. */
  store: Store | undefined;
  operations: Operations;
  /** Flushes the rate-limit counters and the store, and releases the lock. */
  close(): Promise<void>;
}
