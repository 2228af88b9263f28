import { describe, expect, it } from 'vitest';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import type { StoreData } from '../../src/server/store/schema.js';
import { fixtureStore } from '../helpers/fixture-store.js';
import { freshDatabase } from '../helpers/postgres.js';

/**
 * A COPY the database fails part-way (src/server/store-pg/bulk-load.ts, CopyWriter): the
 * failure reaches the caller as a rejection and the load is rolled back; it never ends the
 * process as an 'error' event with no listener (the database answers while rows are still
 * being gathered, between two waits for a drain).
 */
describe('a bulk load the database refuses part-way', () => {
  it('rejects with the database’s reason, leaves the store empty, and the same load without the refused row works', async () => {
    const db = await freshDatabase();
    const store = await PgStore.open(db.url, { max: 2 });
    try {
      // Refused by the database as the first rows arrive; megabytes of rows still to send after it.
      await store.sql`ALTER TABLE cr_records ADD CONSTRAINT test_refused CHECK (id <> 'refused-user')`;
      const data = fixtureStore() as unknown as StoreData;
      const filler = Array.from({ length: 20_000 }, (_, i) => ({ ...data.learnings[0]!, id: `filler-${i}`, title: 'x'.repeat(200) }));
      const users = [{ ...data.users[0]!, id: 'refused-user', email: 'refused@example.com' }, ...data.users];
      const bad = { ...data, users, learnings: [...data.learnings, ...filler] } as StoreData;
      await expect(loadInto(store, bad)).rejects.toThrow(/the database refused the load part-way/);
      expect((await store.sql`SELECT count(*)::int AS n FROM cr_records`)[0]!.n).toBe(0);
      await loadInto(store, { ...bad, users: data.users } as StoreData);
      expect((await store.sql`SELECT count(*)::int AS n FROM cr_records WHERE collection = 'learnings'`)[0]!.n).toBe(data.learnings.length + filler.length);
    } finally {
      await store.close();
      await db.drop();
    }
  }, 120_000);
});
