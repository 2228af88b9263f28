import { JsonStore } from './json-store.js';
import type { OpenJsonStoreOptions } from './json-store.js';
import type { MemoryStore } from './memory-store.js';
import type { StoreData } from './schema.js';
import type { PgStore, PgStoreOptions } from '../store-pg/pg-store.js';
import { isDatabaseUrl } from '../../config/store-url.js';

/**
 * Where a store is: the path of a JSON file, a postgres:// URL (docs/shared-sandbox.md), or
 * memory, holding a copy of the records given (tests, and records not kept anywhere).
 */
export type StoreLocation = string | { memory: StoreData };

/** How each kind of store is opened: only the part for the kind the location names is read. */
export interface OpenStoreOptions {
  /** A JSON file (json-store.ts, store.ts): its lock's label, its first content, the rate-limit sidecar, the journal's settings. */
  file?: OpenJsonStoreOptions;
  /** A database (src/server/store-pg/pg-store.ts): the pool, the environment's libpq variables, whether the schema is migrated. */
  database?: PgStoreOptions;
}

/** An open store of any kind: `kind` tells which, for what only one kind has (a file's stats, a database's bulk load). */
export type OpenedStore = JsonStore | PgStore | MemoryStore;

/**
 * Opens a store of any kind, for every caller: `cr serve` and --local (src/server/open-for-serving.ts),
 * the `cr local` commands, the tests. A JSON file is opened under its lock (created when
 * missing, refused when invalid or held); a database's client and the memory store load only
 * when asked for, so a run over a file pays for neither.
 */
export async function openStore(location: StoreLocation, opts: OpenStoreOptions = {}): Promise<OpenedStore> {
  if (typeof location !== 'string') {
    const { MemoryStore } = await import('./memory-store.js');
    return new MemoryStore(location.memory);
  }
  if (isDatabaseUrl(location)) {
    const { PgStore } = await import('../store-pg/pg-store.js');
    return PgStore.open(location, opts.database);
  }
  return JsonStore.open(location, opts.file);
}

/**
 * How a `cr local` command opens a database: a small pool, and the schema only checked unless
 * `migrate` (docs/shared-sandbox.md "Upgrading"): only the commands that make a store (init,
 * copy --to, seed), `cr local migrate` and `cr serve` change it. `env` carries the libpq
 * variables (PGPASSWORD, PGSSLMODE…; src/server/store-pg/connection.ts).
 */
export const localCommandDatabase = (env?: NodeJS.ProcessEnv, migrate = false): PgStoreOptions => ({
  max: 4,
  env,
  schema: migrate ? 'apply' : 'check-local',
});
