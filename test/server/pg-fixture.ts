import { readFileSync } from 'node:fs';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/clock.js';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { freshDatabase } from '../helpers/postgres.js';
import { FIXTURE, NOW, request } from './helpers.js';
import type { FixtureTarget } from './in-process-fixture.js';

/**
 * The decision tables' fixture on PostgreSQL (docs/shared-sandbox.md): the same records loaded
 * into a fresh database, `cr serve`'s server over it on 127.0.0.1:0. `path` is the database
 * URL; `store` (a store file) does not exist here, so tests that read the file read
 * `core.store` instead.
 */
export async function startPgFixture(): Promise<FixtureTarget> {
  const db = await freshDatabase();
  const loader = await PgStore.open(db.url, { max: 2 });
  try {
    await loadInto(loader, JSON.parse(readFileSync(FIXTURE, 'utf8')));
  } finally {
    await loader.close();
  }
  const server = await startServer({ port: 0, log: false, clock: fixedClock(NOW), onInternalError: () => {}, storePath: db.url });
  return {
    path: db.url,
    dir: '',
    get store(): FixtureTarget['store'] {
      throw new Error('a PostgreSQL store has no store file');
    },
    core: server.core,
    req: (method, p, o) => request(server.url, method, p, o),
    stop: async () => {
      await server.close();
      await db.drop();
    },
  };
}
