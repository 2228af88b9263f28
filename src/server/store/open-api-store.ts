import type { ApiStore } from './api-store.js';
import { JsonStore } from './json-store.js';
import { isDatabaseUrl } from '../../config/store-url.js';

/**
 * Opens the store a `--store` value names, for the local tool set (keys, seed, export, copy):
 * a JSON file under its lock, or a PostgreSQL database (docs/shared-sandbox.md), whose client
 * loads only then. A database's schema is only checked unless `migrate` is set: only the
 * commands that make a store (init, copy --to, seed), `cr local migrate` and `cr serve` change it
 * (docs/shared-sandbox.md "Upgrading").
 */
export async function openApiStore(location: string, opts: { lockLabel?: string; env?: NodeJS.ProcessEnv; migrate?: boolean } = {}): Promise<ApiStore> {
  if (isDatabaseUrl(location)) {
    const { PgStore } = await import('../store-pg/pg-store.js');
    // The command's environment carries the libpq variables (PGPASSWORD, PGSSLMODE…; src/server/store-pg/connection.ts).
    return PgStore.open(location, { max: 4, env: opts.env, schema: opts.migrate ? 'apply' : 'check-local' });
  }
  return JsonStore.open(location, opts);
}
