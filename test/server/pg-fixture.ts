import { readFileSync } from 'node:fs';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { openStore } from '../../src/server/store/open-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { freshDatabase } from '../helpers/postgres.js';
import { FIXTURE, NOW, request } from './helpers.js';
import type { FixtureTarget } from './in-process-fixture.js';

/**
 * The decision tables' fixture on PostgreSQL (docs/shared-sandbox.md): the same records loaded
 * into a fresh database and three of `cr serve`'s servers over it on 127.0.0.1:0, each request
 * sent to the next server in turn, so that every table holds for several servers on one
 * database (a key's rate count, a write then its read, a revocation: each may cross servers).
 * `path` is the database URL; `store` (a store file) does not exist here, so tests that read
 * the file read `operations.store` (the first server's) instead.
 */
export async function startPgFixture(): Promise<FixtureTarget> {
  const db = await freshDatabase();
  const loader = await openStore(db.url, { database: { max: 2 } });
  try {
    if (loader.kind !== 'postgres') throw new Error(`${db.url} opened as a ${loader.kind} store`);
    await loadInto(loader, JSON.parse(readFileSync(FIXTURE, 'utf8')));
  } finally {
    await loader.close();
  }
  const servers = await Promise.all([0, 1, 2].map(() => startServer({ port: 0, log: false, clock: fixedClock(NOW), onInternalError: () => {}, storePath: db.url })));
  let turn = 0;
  return {
    path: db.url,
    dir: '',
    get store(): FixtureTarget['store'] {
      throw new Error('a PostgreSQL store has no store file');
    },
    operations: servers[0]!.operations,
    req: (method, p, o) => request(servers[turn++ % servers.length]!.url, method, p, o),
    stop: async () => {
      await Promise.all(servers.map((s) => s.close()));
      await db.drop();
    },
  };
}
