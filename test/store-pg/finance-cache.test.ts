import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { financeSummary } from '../../src/server/domain/compute/finance.js';
import { fixtureStore, SITE, USER } from '../helpers/fixture-store.js';
import postgres from 'postgres';
import { freshDatabase } from '../helpers/postgres.js';
import type { StoreData } from '../../src/server/store/schema.js';

/**
 * The PostgreSQL store keeps a finance summary's answer only while the database's finance
 * version is the one it was computed at (src/server/store-pg/finance-cache.ts). Two stores on
 * one database stand for two servers: a change through one is in the other's next answer.
 */
describe('finance summaries kept by the PostgreSQL store', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: PgStore;
  let b: PgStore;
  const data = fixtureStore() as unknown as StoreData;
  const TODAY = '2026-11-22';
  const expected = (d: StoreData) => financeSummary({ entities: d.business_entities, records: d.revenue_records, costs: d.cost_items, ownerId: USER, today: TODAY });

  beforeAll(async () => {
    db = await freshDatabase();
    a = await PgStore.open(db.url, { max: 4 });
    b = await PgStore.open(db.url, { max: 4 });
    await loadInto(a, data);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it('gives the same answer again while nothing it reads changed, even as other collections are written', async () => {
    const first = await a.financeSummary(USER, TODAY);
    expect(first.value).toEqual(expected(data));
    await b.commit([{ op: 'insert', collection: 'learnings', record: { id: 'l-finance-test', websiteId: SITE, title: 't' } as never }]);
    expect(await a.financeSummary(USER, TODAY)).toBe(first);
    expect((await a.financeSummary(USER, '2026-12-01')).value).toEqual(
      financeSummary({ entities: data.business_entities, records: data.revenue_records, costs: data.cost_items, ownerId: USER, today: '2026-12-01' }),
    );
  });

  it('answers with a change made through another server at once: a revenue patch, a new cost item, a new entity', async () => {
    const before = await a.financeSummary(USER, TODAY);
    const r = data.revenue_records.find((x) => x.status === 'active')!;
    await b.commit([{ op: 'patch', collection: 'revenue_records', id: r.id, patch: { status: 'churned' } }]);
    let now: StoreData = { ...data, revenue_records: data.revenue_records.map((x) => (x.id === r.id ? { ...x, status: 'churned' as const } : x)) };
    const afterPatch = await a.financeSummary(USER, TODAY);
    expect(afterPatch).not.toBe(before);
    expect(afterPatch.value).toEqual(expected(now));

    const entity = data.business_entities.find((e) => e.owner_id === USER)!;
    const cost = { id: 'cost-finance-test', entity_id: entity.id, category: 'ai', monthly_cents: 12_345, description: 'new' };
    await b.commit([{ op: 'insert', collection: 'cost_items', record: cost as never }]);
    now = { ...now, cost_items: [...now.cost_items, cost as never] };
    expect((await a.financeSummary(USER, TODAY)).value).toEqual(expected(now));

    const added = { ...entity, id: 'entity-finance-test', name: 'A new entity' };
    await b.commit([{ op: 'insert', collection: 'business_entities', record: added as never }]);
    now = { ...now, business_entities: [...now.business_entities, added] };
    expect((await a.financeSummary(USER, TODAY)).value).toEqual(expected(now));
  });
});

/**
 * The finance version stands for one state of the data: a number that comes back with other
 * data behind it (a database emptied, or dropped and made again, while servers run) never gives
 * a kept answer again, and emptying the records with TRUNCATE empties the running totals too.
 */
describe('finance summaries kept across a database emptied or made again', () => {
  const data = fixtureStore() as unknown as StoreData;
  const TODAY = '2026-11-22';
  const expected = (d: StoreData) => financeSummary({ entities: d.business_entities, records: d.revenue_records, costs: d.cost_items, ownerId: USER, today: TODAY });
  const finance = ['business_entities', 'cost_items', 'revenue_records'] as const;
  /** The first read after the database dropped the store's connections may find one of them gone. */
  const summary = async (store: PgStore) => {
    for (let i = 0; ; i++) {
      try {
        return (await store.financeSummary(USER, TODAY)).value;
      } catch (err) {
        if (i >= 3) throw err;
      }
    }
  };

  it('answers from nothing after TRUNCATE, and counts the revenue written after it from zero', async () => {
    const db = await freshDatabase();
    const a = await PgStore.open(db.url, { max: 2 });
    const b = await PgStore.open(db.url, { max: 2 });
    try {
      await loadInto(b, data);
      expect(await summary(a)).toEqual(expected(data));
      await b.sql`TRUNCATE cr_records CASCADE`;
      expect(await summary(a)).toEqual({ summaries: [], invoiceAlerts: [] });
      await b.commit(finance.flatMap((c) => (data[c] as unknown as Record<string, unknown>[]).map((record) => ({ op: 'insert' as const, collection: c, record: record as never }))));
      expect(await summary(a)).toEqual(expected(data));
      // A change of the revenue rows alone (direct SQL) is a change too.
      await b.sql`TRUNCATE cr_revenue`;
      expect((await summary(a)).summaries.map((s) => s.activeMrr)).toEqual(expected(data).summaries.map(() => 0));
    } finally {
      await Promise.all([a.close(), b.close()]);
      await db.drop();
    }
  });

  // Its schema dropped and made again: to the kept answers that is a database dropped and made
  // again (every table, the finance version's row among them, made anew by the next store to
  // open it), without DROP DATABASE's wait for a checkpoint of the whole cluster, seconds on a
  // busy disk (test/helpers/postgres.ts). The first store's connections stay open across it.
  it('never gives an answer kept from a database whose schema was dropped and made again with other data', async () => {
    const db = await freshDatabase();
    const a = await PgStore.open(db.url, { max: 2 });
    let b: PgStore | undefined;
    try {
      await loadInto(a, data);
      expect(await summary(a)).toEqual(expected(data));
      const admin = postgres(db.url, { max: 1, onnotice: () => undefined });
      try {
        await admin.unsafe('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
      } finally {
        await admin.end();
      }
      const other = { ...data, revenue_records: data.revenue_records.map((r) => ({ ...r, amount_cents: r.amount_cents * 3 })) };
      b = await PgStore.open(db.url, { max: 2 });
      await loadInto(b, other);
      expect(await summary(a)).toEqual(expected(other));
    } finally {
      await Promise.all([a.close(), b?.close()]);
      await db.drop();
    }
  });
});

describe('finance summaries after revenue records written by SQL of their own', () => {
  it('counts a revenue record updated or added by SQL as if cr had written it', async () => {
    const data = fixtureStore() as unknown as StoreData;
    const TODAY = '2026-11-22';
    const expected = (d: StoreData) => financeSummary({ entities: d.business_entities, records: d.revenue_records, costs: d.cost_items, ownerId: USER, today: TODAY });
    const db = await freshDatabase();
    const a = await PgStore.open(db.url, { max: 2 });
    try {
      await loadInto(a, data);
      expect((await a.financeSummary(USER, TODAY)).value).toEqual(expected(data));
      const active = data.revenue_records.find((r) => r.status === 'active')!;
      const other = data.revenue_records.find((r) => r.status === 'active' && r.id !== active.id)!;
      const added = { ...other, id: 'revenue-by-sql', client_name: 'Added by SQL', amount_cents: 30_001, billing_frequency: 'quarterly' as const };
      await a.sql`UPDATE cr_records SET body = ${JSON.stringify({ ...active, status: 'churned' })}::text::json WHERE collection = 'revenue_records' AND id = ${active.id}`;
      await a.sql`UPDATE cr_records SET body = ${JSON.stringify({ ...other, amount_cents: other.amount_cents + 7 })}::text::json WHERE collection = 'revenue_records' AND id = ${other.id}`;
      await a.sql`INSERT INTO cr_records (collection, id, lookup, body) VALUES ('revenue_records', ${added.id}, ${added.entity_id}, ${JSON.stringify(added)}::text::json)`;
      const now = {
        ...data,
        revenue_records: [...data.revenue_records.map((r) => (r.id === active.id ? { ...r, status: 'churned' as const } : r.id === other.id ? { ...r, amount_cents: r.amount_cents + 7 } : r)), added],
      };
      expect((await a.financeSummary(USER, TODAY)).value).toEqual(expected(now));
      // cr's own writes stay exact with the trigger beside them.
      await a.commit([{ op: 'patch', collection: 'revenue_records', id: active.id, patch: { status: 'active' } }]);
      expect((await a.financeSummary(USER, TODAY)).value).toEqual(
        expected({ ...now, revenue_records: now.revenue_records.map((r) => (r.id === active.id ? { ...r, status: 'active' as const } : r)) }),
      );
    } finally {
      await a.close();
      await db.drop();
    }
  });
});

describe('the finance version under concurrent writes of finance records', () => {
  it('lets two transactions that write overlapping cost items (A then B, B then C) both commit', async () => {
    const data = fixtureStore() as unknown as StoreData;
    const db = await freshDatabase();
    const a = await PgStore.open(db.url, { max: 2 });
    const b = await PgStore.open(db.url, { max: 2 });
    try {
      await loadInto(a, data);
      const [A, B, C] = data.cost_items.map((r) => r.id);
      const touch = (tx: unknown, id: string) => (tx as PgStore['sql'])`UPDATE cr_records SET body = body WHERE collection = 'cost_items' AND id = ${id}`;
      let go: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        go = resolve;
      });
      const first = a.sql.begin(async (tx) => {
        await touch(tx, A!);
        await gate;
        await touch(tx, B!);
      });
      await new Promise((r) => setTimeout(r, 200));
      const second = b.sql.begin(async (tx) => {
        await touch(tx, B!);
        await touch(tx, C!);
      });
      await new Promise((r) => setTimeout(r, 200));
      go();
      const outcomes = await Promise.allSettled([first, second]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : o.status))).toEqual(['fulfilled', 'fulfilled']);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await db.drop();
    }
  });
});
