import { resolve } from 'node:path';
import { createOperations } from './app/operations.js';
import type { Operations } from './app/operation-types.js';
import { clockFromEnv, realClock } from './domain/clock.js';
import type { Clock, RealClock } from './domain/clock.js';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './app/rate-limit.js';
import { openStore } from './store/open-store.js';
import type { OpenedStore } from './store/open-store.js';
import type { OpenJsonStoreOptions } from './store/json-store.js';
import type { PgStoreOptions } from './store-pg/pg-store.js';
import type { Store, OpenFileOptions } from './store/store.js';
import type { StoreFs } from './store/fs-layer.js';
import { collectLoadGarbage } from './memory.js';
import { errorSummary, logSafe } from './log-text.js';
import { resolveStorePath } from './store/store-path.js';
import { isDatabaseUrl } from '../config/store-url.js';

/** What a server (`cr serve`, --local's, the tests') sets when it opens its store, whatever carries the requests to it. */
export interface ServingOptions {
  rateLimit?: number;
  /** Business clock; default from CR_NOW, else the system clock. */
  clock?: Clock;
  /** Real clock of the rate-limit window (tests only). */
  realClock?: RealClock;
  fs?: StoreFs;
  /** Journal fold thresholds and backups kept (tests; defaults in Store.open). */
  storeOptions?: Pick<OpenFileOptions, 'journalMaxBytes' | 'journalMaxRecords' | 'backups' | 'initial' | 'lockTiming' | 'onGroupCommit' | 'validation'>;
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

/** The open store, its rate limiter, and the operations over both. */
export interface ServedStore {
  /** The store file's real path, or the database's URL without its password. */
  storePath: string;
  /** The store file itself (its stats and compaction, for tests); none for a database. The operations read `operations.store`. */
  file: Store | undefined;
  operations: Operations;
  /** Flushes the rate-limit counters and the store, and releases the lock. */
  close(): Promise<void>;
}

/**
 * Opens the store at `location` for a server (openStore: a JSON file, created when missing and
 * refused when invalid or held by another server, or a PostgreSQL database) and puts the
 * endpoint table's operations over it: key, rate limit, role, validation, scope. `cr serve`
 * puts an HTTP listener in front of them (serve.ts); `--local` calls them in-process
 * (src/local/in-process-dispatcher.ts). Both run the same checks.
 */
export async function openForServing(location: string, opts: ServingOptions): Promise<ServedStore> {
  // The store's real path: sidecars (rate-limit counters too) sit beside the target of a symlink.
  const path = isDatabaseUrl(location) ? location : resolveStorePath(resolve(location), opts.fs);
  const clock = opts.clock ?? clockFromEnv();
  const now = opts.realClock ?? realClock;
  const store = await openStore(path, { file: fileOptions(path, opts, now), database: databaseOptions(opts) });
  if (store.kind === 'file') collectLoadGarbage(path, undefined, opts.fs);
  let rateLimiter: RateLimiter;
  try {
    rateLimiter = new RateLimiter({ store, limit: await rateLimitOf(store, opts.rateLimit), now });
  } catch (err) {
    await store.close();
    throw err;
  }
  const onInternalError = opts.onInternalError ?? ((err: unknown) => opts.notice(`cr serve: internal error: ${errorSummary(err)}`));
  const operations = createOperations({ store, clock, rateLimiter, onInternalError });
  let closing: Promise<void> | undefined;
  return {
    storePath: store.kind === 'postgres' ? store.location : path,
    file: store.kind === 'file' ? store.file : undefined,
    operations,
    close: () => (closing ??= store.close()),
  };
}

/**
 * A file's limit is this server's flag; a database's is the one every server of the database
 * counts with (src/server/store-pg/settings.ts), not this server's flag alone.
 */
const rateLimitOf = async (store: OpenedStore, given: number | undefined) =>
  store.kind === 'postgres' ? store.agreedRateLimit(given, DEFAULT_RATE_LIMIT) : given;

/** A store file as a server holds it: its lock named, the rate-limit sidecar beside it, its troubles told. */
function fileOptions(storePath: string, opts: ServingOptions, realNow: RealClock): OpenJsonStoreOptions {
  const { notice } = opts;
  // Who says it: `cr serve`, or `cr --local` for the server a command runs in-process.
  const who = opts.lockLabel ?? 'cr serve';
  return {
    ...opts.storeOptions,
    fs: opts.fs,
    maxStoreBytes: opts.maxStoreMb === undefined ? undefined : opts.maxStoreMb * 1024 * 1024,
    onFoldProblem: (e) =>
      notice(
        e.failed
          ? `${who}: folding the journal into ${logSafe(storePath)} failed (${errorSummary(e.error)}); the journal keeps every write; retrying with backoff`
          : `${who}: the journal was folded into ${logSafe(storePath)} again after ${e.failures} failed attempt(s)`,
      ),
    onLockLost: () => {
      notice(
        `${who}: the lock on ${logSafe(storePath)} was taken over by another process (a server or a cr local command) while this one was not running (stopped or frozen); writes are refused from now on, reads too (503, lock_lost)`,
      );
      opts.onStoreLost?.();
    },
    lockLabel: opts.lockLabel,
    rateSidecar: true,
    realNow,
  };
}

/** A database as `cr serve` opens it: its pool, the command's environment, migrated or only checked. */
function databaseOptions(opts: ServingOptions): PgStoreOptions {
  const db = opts.database ?? {};
  return { env: db.env, max: db.pool, schema: db.schema, notice: opts.notice };
}
