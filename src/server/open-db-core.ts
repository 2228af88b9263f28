import { createOperations } from './app/operations.js';
import { clockFromEnv, realClock } from './domain/clock.js';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './app/rate-limit.js';
import { errorSummary } from './log-text.js';
import type { OpenCore, OpenCoreOptions } from './open-core-types.js';

/**
 * The request pipeline over a PostgreSQL store (docs/shared-sandbox.md): the same operations as
 * over the JSON file (open-core.ts), with the database in place of the file, its lock and
 * its sidecars. The client library loads here, only for such a store.
 */
export async function openDatabaseCore(url: string, opts: OpenCoreOptions): Promise<OpenCore> {
  const { PgStore } = await import('./store-pg/pg-store.js');
  const db = opts.database ?? {};
  const store = await PgStore.open(url, { env: db.env, max: db.pool, schema: db.schema, notice: opts.notice });
  let rateLimiter: RateLimiter;
  try {
    // The limit every server of the database counts with (store-pg/settings.ts), not this server's flag alone.
    const limit = await store.agreedRateLimit(opts.rateLimit, DEFAULT_RATE_LIMIT);
    rateLimiter = new RateLimiter({ store, limit, now: opts.realClock ?? realClock });
  } catch (err) {
    await store.close();
    throw err;
  }
  const onInternalError = opts.onInternalError ?? ((err: unknown) => opts.notice(`cr serve: internal error: ${errorSummary(err)}`));
  const operations = createOperations({ store, clock: opts.clock ?? clockFromEnv(), rateLimiter, onInternalError });
  let closing: Promise<void> | undefined;
  return { storePath: store.location, store: undefined, operations, close: () => (closing ??= store.close()) };
}
