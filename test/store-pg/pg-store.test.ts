import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { pgFinanceSummary } from '../../src/server/store-pg/finance-sql.js';
import { SchemaTooNewError } from '../../src/server/store-pg/migrate.js';
import { NEWEST_SCHEMA } from '../../src/server/store-pg/migrations.js';
import { financeSummary } from '../../src/server/domain/compute/finance.js';
import { fixtureStore, USER } from '../helpers/fixture-store.js';
import { freshDatabase } from '../helpers/postgres.js';
import type { StoreData } from '../../src/server/store/schema.js';

describe('the PostgreSQL store', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let store: PgStore;
  const data = fixtureStore() as unknown as StoreData;

  beforeAll(async () => {
    db = await freshDatabase();
    store = await PgStore.open(db.url, { max: 4 });
    await loadInto(store, data);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('tells /metrics its pool: statements in flight against the pool size, the rest waiting', async () => {
    expect(store.poolStats()).toEqual({ inUse: 0, idle: 4, waiting: 0 });
    const seen: ReturnType<PgStore['poolStats']>[] = [];
    // Six reads at once on a pool of four: four in use, two waiting, while they run.
    const reads = Array.from({ length: 6 }, (_, i) => store.apiKey(`none-${i}`));
    seen.push(store.poolStats());
    await Promise.all(reads);
    expect(seen[0]).toEqual({ inUse: 4, idle: 0, waiting: 2 });
    expect(store.poolStats()).toEqual({ inUse: 0, idle: 4, waiting: 0 });
  });

  it('gives back every record in store order, byte for byte', async () => {
    const out = await store.snapshot();
    for (const [name, list] of Object.entries(data)) {
      if (!Array.isArray(list)) continue;
      expect(JSON.stringify((out as never)[name]), name).toBe(JSON.stringify(list));
    }
  });

  it('answers the finance summary as the in-memory computation does, for every owner and several days', async () => {
    const owners = [USER, ...new Set(data.business_entities.map((e) => e.owner_id))];
    for (const owner of owners) {
      for (const today of ['2026-01-01', '2026-11-22', '2026-12-01', '2027-06-30']) {
        const expected = financeSummary({ entities: data.business_entities, records: data.revenue_records, costs: data.cost_items, ownerId: owner, today });
        expect(await pgFinanceSummary(store, owner, today), `${owner} ${today}`).toEqual(expected);
      }
    }
  });

  it('keeps the running totals right through patches of revenue records', async () => {
    const r = data.revenue_records[0]!;
    await store.commit([{ op: 'patch', collection: 'revenue_records', id: r.id, patch: { status: 'churned' } }]);
    const after = data.revenue_records.map((x) => (x.id === r.id ? { ...x, status: 'churned' as const } : x));
    const expected = financeSummary({ entities: data.business_entities, records: after, costs: data.cost_items, ownerId: USER, today: '2026-11-22' });
    expect(await pgFinanceSummary(store, USER, '2026-11-22')).toEqual(expected);
    await store.commit([{ op: 'patch', collection: 'revenue_records', id: r.id, patch: { status: r.status } }]);
  });

  it('counts a key exactly from concurrent hits, and restarts a window that ended', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z'); // the caller's time: unused, the database's clock counts
    const hits = await Promise.all(Array.from({ length: 200 }, () => store.rateHit('k1', now, 3_600_000)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const start = hits[0]!.start;
    expect(await store.ratePeek('k1', now + 1000, 3_600_000)).toEqual({ start, count: 200 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // A 1 ms window has ended by the next statement.
    expect((await store.rateHit('k1', now, 1)).count).toBe(1);
  });

  it('refuses a database whose schema is newer than it knows', async () => {
    await store.sql`INSERT INTO cr_schema (version, what) VALUES (${NEWEST_SCHEMA + 1}, 'from the future')`;
    await expect(PgStore.open(db.url, { max: 1 })).rejects.toBeInstanceOf(SchemaTooNewError);
    await store.sql`DELETE FROM cr_schema WHERE version = ${NEWEST_SCHEMA + 1}`;
  });
});

describe('loading a whole store into PostgreSQL', () => {
  it('copies every record and builds the same finance totals the trigger keeps', async () => {
    const { DestinationNotEmptyError } = await import('../../src/server/store-pg/bulk-load.js');
    const db = await freshDatabase();
    const store = await PgStore.open(db.url, { max: 2 });
    try {
      const data = fixtureStore() as unknown as StoreData;
      const odd = { ...data.revenue_records[0]!, id: 'odd\ttab\\slash\nline', client_name: 'Tab\there' };
      data.revenue_records.push(odd as never);
      await loadInto(store, data as never);
      const out = await store.snapshot();
      expect(JSON.stringify(out.revenue_records)).toBe(JSON.stringify(data.revenue_records));
      expect(JSON.stringify(out.api_keys)).toBe(JSON.stringify(data.api_keys));
      const expected = financeSummary({ entities: data.business_entities, records: data.revenue_records, costs: data.cost_items, ownerId: USER, today: '2026-11-22' });
      expect(await pgFinanceSummary(store, USER, '2026-11-22')).toEqual(expected);
      await expect(loadInto(store, data as never)).rejects.toBeInstanceOf(DestinationNotEmptyError);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
