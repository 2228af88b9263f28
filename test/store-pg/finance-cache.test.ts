import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { financeSummary } from '../../src/server/compute/finance.js';
import { fixtureStore, SITE, USER } from '../helpers/fixture-store.js';
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
