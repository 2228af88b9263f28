import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { MIGRATIONS } from '../../src/server/store-pg/migrations.js';
import { StoreUnavailableError } from '../../src/server/store/errors.js';
import { createApiKey } from '../../src/server/domain/keys.js';
import { sha256Hex } from '../../src/server/domain/auth.js';
import { fixtureStore, SITE } from '../helpers/fixture-store.js';
import { freshDatabase } from '../helpers/postgres.js';
import type { StoreData } from '../../src/server/store/schema.js';

/**
 * The PostgreSQL store answers requests that arrive together with one statement each for
 * their keys, their rate-limit hits and their creates (src/server/store-pg/coalesce.ts,
 * batched.ts). Two stores on one database stand for two servers. Batching must not change
 * what any one request sees or is told.
 */
describe('requests that share a statement on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: PgStore;
  let b: PgStore;

  beforeAll(async () => {
    db = await freshDatabase();
    a = await PgStore.open(db.url, { max: 4 });
    b = await PgStore.open(db.url, { max: 4 });
    await loadInto(a, fixtureStore() as unknown as StoreData);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it('numbers every hit of several keys exactly once, the hits arriving together through two servers', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const keys = ['k-a', 'k-b', 'k-c'];
    const hits = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).rateHit(keys[i % 3]!, now + (i % 5), 3_600_000).then((w) => ({ key: keys[i % 3]!, ...w }))));
    for (const key of keys) {
      const mine = hits.filter((h) => h.key === key);
      expect(
        mine.map((h) => h.count).sort((x, y) => x - y),
        key,
      ).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      // One window per key.
      const starts = new Set(mine.map((h) => h.start));
      expect(starts.size, key).toBe(1);
      const [start] = starts;
      expect(await a.ratePeek(key, now + 10, 3_600_000)).toEqual({ start, count: 100 });
    }
  });

  it('two servers whose clocks differ by minutes (and hours) share one window exactly: the database’s clock counts', async () => {
    const real = Date.now();
    // a on time, b ten minutes behind, c two hours ahead: each used to start the window again.
    const c = await PgStore.open(db.url, { max: 2 });
    try {
      const clocks = [real, real - 600_000, real + 7_200_000];
      const servers = [a, b, c];
      const hits = [];
      for (let round = 0; round < 4; round++) {
        hits.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) => servers[i % 3]!.rateHit('k-clocks', clocks[i % 3]!, 3_600_000)))));
      }
      expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      const starts = new Set(hits.map((h) => h.start));
      expect(starts.size).toBe(1);
      // The window is the database's (this machine's clock): none of the servers' skewed times.
      const [start] = starts;
      expect(Math.abs(start! - real)).toBeLessThan(600_000);
      for (const [i, s] of servers.entries()) expect((await s.ratePeek('k-clocks', clocks[i]!, 3_600_000))?.count, `server ${i}`).toBe(120);
    } finally {
      await c.close();
    }
  });

  it('starts a new window for the hits of a batch that arrive after the window ended', async () => {
    const first = await a.rateHit('k-window', 0, 50);
    await new Promise((resolve) => setTimeout(resolve, 80)); // past the 50 ms window on the database's clock
    const later = await Promise.all(Array.from({ length: 5 }, () => a.rateHit('k-window', 0, 50)));
    expect(later.map((w) => w.count).sort()).toEqual([1, 2, 3, 4, 5]);
    const starts = new Set(later.map((w) => w.start));
    expect(starts.size).toBe(1);
    expect([...starts][0]).toBeGreaterThan(first.start);
  });

  it('finds each key of a batch, unknown ones as unknown, and sees a revocation made through another server at once', async () => {
    const made = await Promise.all([0, 1, 2].map((i) => createApiKey(a, { role: 'editor', websiteId: SITE, name: `batch ${i}` })));
    const unknown = sha256Hex(`cr_${'0'.repeat(40)}`);
    const asked = [...made.map((m) => m.record.key_sha256), unknown, made[0]!.record.key_sha256];
    const found = await Promise.all(asked.map((s) => b.keyBySha256(s)));
    expect(found.map((k) => k?.id)).toEqual([...made.map((m) => m.record.id), undefined, made[0]!.record.id]);
    await a.commit([{ op: 'patch', collection: 'api_keys', id: made[1]!.record.id, patch: { revoked_at: '2026-11-22T10:00:00.000Z' } }]);
    const again = await Promise.all(made.map((m) => b.keyBySha256(m.record.key_sha256)));
    expect(again.map((k) => k?.revoked_at ?? null)).toEqual([null, '2026-11-22T10:00:00.000Z', null]);
  });

  it('writes every create of a batch in the order they came, and fails only the one PostgreSQL refuses', async () => {
    const taken = fixtureStore().learnings[0]!.id;
    const record = (id: string) => ({ id, websiteId: SITE, title: `learning ${id}` }) as never;
    const ids = Array.from({ length: 12 }, (_, i) => `batch-learning-${String(i).padStart(2, '0')}`);
    const outcomes = await Promise.allSettled([...ids.slice(0, 6), taken, ...ids.slice(6)].map((id) => a.commit([{ op: 'insert', collection: 'learnings', record: record(id) }])));
    expect(outcomes.map((o) => o.status)).toEqual([...Array(6).fill('fulfilled'), 'rejected', ...Array(6).fill('fulfilled')]);
    expect((outcomes[6] as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
    const learnings = (await b.snapshot()).learnings.map((l) => l.id);
    expect(learnings.filter((id) => id.startsWith('batch-learning-'))).toEqual(ids);
    expect(learnings.filter((id) => id === taken)).toHaveLength(1);
  });
});

describe('loading a whole store with its checks set aside', () => {
  it('builds the indexes and the foreign key again as the migrations made them, and a duplicate id fails the whole load', async () => {
    const db = await freshDatabase();
    const store = await PgStore.open(db.url, { max: 2 });
    const schema = () => store.sql`
      SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename LIKE 'cr\\_%'
      UNION ALL SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid::regclass::text LIKE 'cr\\_%'
      ORDER BY 1, 2`;
    try {
      const migrated = await schema();
      expect(migrated.map((r) => r.name)).toContain('cr_revenue_seq_fkey');
      expect(migrated.length).toBeGreaterThan(MIGRATIONS.length);
      const data = fixtureStore() as unknown as StoreData;
      const twice = { ...data, learnings: [...data.learnings, data.learnings[0]!] };
      await expect(loadInto(store, twice as never)).rejects.toThrow(/duplicate key|unique/i);
      expect(await schema()).toEqual(migrated);
      expect((await store.sql`SELECT count(*)::int AS n FROM cr_records`)[0]!.n).toBe(0);
      await loadInto(store, data);
      expect(await schema()).toEqual(migrated);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
