import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { ApiStore } from '../../src/server/store/api-store.js';
import { openStore } from '../../src/server/store/open-store.js';
import { StoreUnavailableError } from '../../src/server/store/errors.js';
import type { StoreData } from '../../src/server/store/schema.js';
import { sha256Hex } from '../../src/server/domain/auth.js';
import { FIXTURE, IDS, KEYS, fixtureStore } from '../server/helpers.js';
import { answeringLater } from './async-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { freshDatabase } from '../helpers/postgres.js';
import { ResetError, resetStore } from '../../src/server/ops/admin/reset.js';

/**
 * The store interface (src/server/store/api-store.ts) as a contract: every implementation
 * answers these the same way, over the fixture store of the decision tests, each opened as
 * every caller opens it (src/server/store/open-store.ts). A new store (a database) joins by
 * adding one entry to `implementations`.
 */
interface Implementation {
  name: string;
  /** A store holding the fixture; `reopen` (durable stores only) closes it and opens it again. */
  open(): Promise<{ store: ApiStore; reopen?: () => Promise<ApiStore>; cleanup: () => Promise<void>; shiftWindow?: (keyId: string, ms: number) => Promise<void> }>;
  /**
   * Whose clock the rate-limit windows run on: the caller's `now` (a store in one process), or
   * the database's (shared by servers whose clocks differ: src/server/store-pg/batched.ts DB_NOW).
   * A database-clock store moves a window in time with `shiftWindow` instead.
   */
  clock: 'caller' | 'database';
}

const fixture = (): StoreData => JSON.parse(readFileSync(FIXTURE, 'utf8'));

const implementations: Implementation[] = [
  { name: 'memory', clock: 'caller', open: async () => ({ store: await openStore({ memory: fixture() }), cleanup: async () => {} }) },
  {
    name: 'memory, answering with promises',
    clock: 'caller',
    open: async () => ({ store: answeringLater(await openStore({ memory: fixture() })), cleanup: async () => {} }),
  },
  {
    name: 'JSON file',
    clock: 'caller',
    open: async () => {
      const f = await fixtureStore();
      const file = { rateSidecar: true };
      const store = await openStore(f.path, { file });
      return { store, reopen: () => openStore(f.path, { file }), cleanup: f.cleanup };
    },
  },
  {
    // --local's: every read must first ask for its collections' records to be validated (Store.ready), or it throws.
    name: 'JSON file, records validated on first use',
    clock: 'caller',
    open: async () => {
      const f = await fixtureStore();
      const file = { rateSidecar: true, validation: 'first-use' } as const;
      const store = await openStore(f.path, { file });
      return { store, reopen: () => openStore(f.path, { file }), cleanup: f.cleanup };
    },
  },
  {
    name: 'PostgreSQL',
    clock: 'database',
    open: async () => {
      const db = await freshDatabase();
      const database = { max: 8 };
      const store = await openStore(db.url, { database });
      if (store.kind !== 'postgres') throw new Error(`${db.url} opened as a ${store.kind} store`);
      await loadInto(store, fixture());
      const { default: postgres } = await import('postgres');
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      const shiftWindow = async (keyId: string, ms: number) => {
        await sql`UPDATE cr_rate_windows SET window_start = window_start + ${ms} WHERE key_id = ${keyId}`;
      };
      return { store, reopen: () => openStore(db.url, { database }), shiftWindow, cleanup: async () => (await sql.end(), await db.drop()) };
    },
  },
];

const HOUR = 3_600_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const ids = (rows: readonly { id?: unknown }[]) => rows.map((r) => r.id);
const sites = (rows: readonly { websiteId: string }[]) => new Set(rows.map((r) => r.websiteId));
const user = (id: string) => ({ id, email: `${id}@example.com`, name: id });

describe.each(implementations)('store contract: $name', (impl) => {
  const open: ApiStore[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close().catch(() => undefined);
    for (const c of cleanups.splice(0)) await c();
  });
  const start = async () => {
    const made = await impl.open();
    open.push(made.store);
    cleanups.push(made.cleanup);
    return made;
  };

  it('finds keys by their sha256, revoked ones too, and nothing for an unknown one', async () => {
    const { store } = await start();
    expect((await store.keyBySha256(sha256Hex(KEYS.editorW1)))?.id).toBe(IDS.keyEditorW1);
    const revoked = await store.keyBySha256(sha256Hex(KEYS.revoked));
    expect(revoked?.revoked_at).toBeTruthy();
    expect(await store.keyBySha256(sha256Hex(KEYS.unknown))).toBeUndefined();
    expect((await store.apiKey(IDS.keyEditorW1))?.key_sha256).toBe(sha256Hex(KEYS.editorW1));
    expect(ids(await store.apiKeys())).toEqual(ids(fixture().api_keys));
  });

  it('looks up users, agencies and websites, and lists an agency’s websites in store order', async () => {
    const { store } = await start();
    expect((await store.user(IDS.U2))?.id).toBe(IDS.U2);
    expect((await store.firstUser())?.id).toBe(IDS.U1);
    expect((await store.agency(IDS.A1))?.id).toBe(IDS.A1);
    expect((await store.website(IDS.W3))?.id).toBe(IDS.W3);
    expect((await store.firstWebsite())?.id).toBe(IDS.W1);
    expect(ids(await store.agencyWebsites(IDS.A1))).toEqual([IDS.W1, IDS.W2]);
    expect(await store.agencyWebsites('no-such-agency')).toEqual([]);
    expect(await store.user('no-such-user')).toBeUndefined();
    expect(await store.website('no-such-website')).toBeUndefined();
  });

  it('gives one owner’s finance rows only', async () => {
    const { store } = await start();
    const rows = await store.financeRows(IDS.U1);
    const mine = fixture().business_entities.filter((e) => e.owner_id === IDS.U1);
    expect(new Set(ids(rows.entities))).toEqual(new Set(ids(mine)));
    const entityIds = new Set(mine.map((e) => e.id));
    expect(rows.records.length).toBeGreaterThan(0);
    expect(rows.records.every((r) => entityIds.has(r.entity_id))).toBe(true);
    expect(rows.records.length).toBe(fixture().revenue_records.filter((r) => entityIds.has(r.entity_id)).length);
    expect(rows.costs.length).toBe(fixture().cost_items.filter((c) => entityIds.has(c.entity_id)).length);
    expect(await store.financeRows('no-such-owner')).toEqual({ entities: [], records: [], costs: [] });
  });

  it('lists website records inside the given scope only', async () => {
    const { store } = await start();
    const w1 = new Set([IDS.W1]);
    const both = new Set([IDS.W1, IDS.W2]);
    for (const list of [store.learnings.bind(store), store.nurtureSequences.bind(store), store.brandSubjects.bind(store), store.crmAgents.bind(store)]) {
      expect(sites(await list(w1))).toEqual(w1);
      expect(sites(await list(both))).toEqual(both);
      expect(await list(new Set())).toEqual([]);
    }
    expect(sites(await store.visibilityScans(IDS.W1))).toEqual(w1);
    expect(await store.visibilityScans(IDS.W3)).toEqual([]);
    expect((await store.adCampaign('camp-summer'))?.websiteId).toBe(IDS.W1);
    expect((await store.socialPost(IDS.postDraft))?.status).toBe('draft');
    expect(await store.socialPost(IDS.unknownPost)).toBeUndefined();
  });

  it('shows a commit to every read once it resolves, and a new key to the key lookup at once', async () => {
    const { store } = await start();
    const before = store.version;
    await store.commit([
      { op: 'insert', collection: 'users', record: user('u-new') },
      { op: 'patch', collection: 'social_posts', id: IDS.postDraft, patch: { status: 'scheduled' } },
    ]);
    expect((await store.user('u-new'))?.name).toBe('u-new');
    expect((await store.socialPost(IDS.postDraft))?.status).toBe('scheduled');
    if (before !== undefined) expect(store.version).not.toBe(before);
    const key = { ...fixture().api_keys[0]!, id: 'k-new', key_sha256: sha256Hex(KEYS.unknown) };
    await store.commit([{ op: 'insert', collection: 'api_keys', record: key }]);
    expect((await store.keyBySha256(sha256Hex(KEYS.unknown)))?.id).toBe('k-new');
  });

  it('applies a commit all or none: a patch of a missing record rejects it whole', async () => {
    const { store } = await start();
    await expect(
      store.commit([
        { op: 'insert', collection: 'users', record: user('u-lost') },
        { op: 'patch', collection: 'social_posts', id: IDS.unknownPost, patch: { status: 'scheduled' } },
      ]),
    ).rejects.toThrow(/No social_posts record/);
    expect(await store.user('u-lost')).toBeUndefined();
  });

  it('keeps its own copy of what a commit wrote: the caller changing its objects afterwards changes nothing stored', async () => {
    const { store } = await start();
    const record = user('u-copy');
    const patch = { status: 'scheduled' };
    await store.commit([
      { op: 'insert', collection: 'users', record },
      { op: 'patch', collection: 'social_posts', id: IDS.postDraft, patch },
    ]);
    record.name = 'changed by the caller';
    patch.status = 'cancelled';
    expect((await store.user('u-copy'))?.name).toBe('u-copy');
    expect((await store.socialPost(IDS.postDraft))?.status).toBe('scheduled');
  });

  it('counts rate-limit hits per key and window, atomically under concurrent hits', async () => {
    const { store } = await start();
    const now = impl.clock === 'caller' ? T0 : Date.now();
    const counts = await Promise.all(Array.from({ length: 50 }, () => store.rateHit('k1', now, HOUR)));
    expect(counts.map((w) => w.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const starts = new Set(counts.map((w) => w.start));
    expect(starts.size).toBe(1);
    const [windowStart] = starts as Set<number>;
    if (impl.clock === 'caller') expect(windowStart).toBe(T0);
    const k2 = await store.rateHit('k2', now + 5, HOUR);
    expect(k2.count).toBe(1);
    if (impl.clock === 'caller') expect(k2.start).toBe(T0 + 5);
    expect(await store.ratePeek('k1', now + 10, HOUR)).toEqual({ start: windowStart, count: 50 });
    expect(await store.ratePeek('k1', now + 10, HOUR)).toEqual({ start: windowStart, count: 50 }); // peeking counts nothing
    expect(await store.ratePeek('nobody', now, HOUR)).toBeUndefined();
  });

  it('starts a new window when the old one ended, or when it starts in the future (the clock stepped back)', async () => {
    const made = await start();
    const { store } = made;
    if (impl.clock === 'caller') {
      await store.rateHit('k', T0, HOUR);
      await store.rateHit('k', T0 + HOUR - 1, HOUR);
      expect(await store.rateHit('k', T0 + HOUR, HOUR)).toEqual({ start: T0 + HOUR, count: 1 });
      expect(await store.ratePeek('k', T0 - 1, HOUR)).toBeUndefined();
      expect(await store.rateHit('k', T0 - 1, HOUR)).toEqual({ start: T0 - 1, count: 1 });
      return;
    }
    // The database's clock: the window moves instead of the caller's time.
    const first = await store.rateHit('k', 0, HOUR);
    await store.rateHit('k', 0, HOUR);
    await made.shiftWindow!('k', -HOUR);
    const again = await store.rateHit('k', 0, HOUR);
    expect(again.count).toBe(1);
    expect(again.start).toBeGreaterThanOrEqual(first.start);
    await made.shiftWindow!('k', HOUR / 2);
    expect(await store.ratePeek('k', 0, HOUR)).toBeUndefined();
    expect((await store.rateHit('k', 0, HOUR)).count).toBe(1);
  });

  it('refuses commits once closed', async () => {
    const { store } = await start();
    await store.close();
    await expect(store.commit([{ op: 'insert', collection: 'users', record: user('late') }])).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('keeps commits and rate-limit counts across close and open (durable stores)', async () => {
    const made = await start();
    if (!made.reopen) return; // the memory store keeps nothing by design
    const now = Date.now();
    await made.store.commit([{ op: 'insert', collection: 'users', record: user('u-kept') }]);
    await made.store.rateHit('k', now, HOUR);
    const { start: windowStart } = await made.store.rateHit('k', now, HOUR);
    if (impl.clock === 'caller') expect(windowStart).toBe(now);
    await made.store.close();
    const again = await made.reopen();
    open.push(again);
    expect((await again.user('u-kept'))?.id).toBe('u-kept');
    expect(await again.ratePeek('k', now + 1, HOUR)).toEqual({ start: windowStart, count: 2 });
  });
  it('removes records by id (ids it does not hold are no error), durably; a patch of a record removed earlier in the batch rejects that write', async () => {
    const made = await start();
    const { store } = made;
    await store.commit([{ op: 'remove', collection: 'social_posts', ids: [IDS.postDraft, IDS.postDraftW2, IDS.unknownPost] }]);
    expect(await store.socialPost(IDS.postDraft)).toBeUndefined();
    expect(await store.socialPost(IDS.postDraftW2)).toBeUndefined();
    expect((await store.socialPost(IDS.postScheduled))?.id).toBe(IDS.postScheduled);
    await expect(
      store.commit([
        { op: 'remove', collection: 'social_posts', ids: [IDS.postScheduled] },
        { op: 'patch', collection: 'social_posts', id: IDS.postScheduled, patch: { status: 'draft' } },
      ]),
    ).rejects.toThrow(/No social_posts record/);
    expect((await store.socialPost(IDS.postScheduled))?.id).toBe(IDS.postScheduled);
    if (!made.reopen) return;
    await store.close();
    const again = await made.reopen();
    open.push(again);
    expect(await again.socialPost(IDS.postDraft)).toBeUndefined();
    expect((await again.socialPost(IDS.postScheduled))?.id).toBe(IDS.postScheduled);
  });

  it('forgets rate-limit windows of some keys, or of all', async () => {
    const { store } = await start();
    const now = Date.now();
    for (const k of ['k1', 'k1', 'k2', 'k3']) await store.rateHit(k, now, HOUR);
    await store.rateForget(['k1', 'nobody']);
    expect(await store.ratePeek('k1', now, HOUR)).toBeUndefined();
    expect((await store.ratePeek('k2', now, HOUR))?.count).toBe(1);
    expect((await store.rateHit('k1', now, HOUR)).count).toBe(1);
    await store.rateForget('all');
    expect(await store.ratePeek('k2', now, HOUR)).toBeUndefined();
    expect(await store.ratePeek('k3', now, HOUR)).toBeUndefined();
  });

  it('resets one website: its records and its keys’ rate windows go; other websites, keys and finance totals of others stay', async () => {
    const made = await start();
    const { store } = made;
    const now = Date.now();
    await store.rateHit(IDS.keyEditorW1, now, HOUR);
    const w3Key = fixture().api_keys.find((k) => k.website_id === IDS.W3)!.id;
    await store.rateHit(w3Key, now, HOUR);
    const before = structuredClone(await store.snapshot()); // the store's own arrays change in place
    const ofW1 = (c: keyof StoreData) => (before[c] as { websiteId?: string; website_id?: string }[]).filter((r) => (r.websiteId ?? r.website_id) === IDS.W1).length;
    const counts = await resetStore(store, { websiteId: IDS.W1 });
    expect(counts.removed.social_posts).toBe(ofW1('social_posts'));
    expect(counts.removed.learnings).toBe(ofW1('learnings'));
    expect(counts.removed.revenue_records).toBe(ofW1('revenue_records'));
    expect(counts.rate_windows).toBe(before.api_keys.filter((k) => k.website_id === IDS.W1).length);
    const after = await store.snapshot();
    expect(sites(after.social_posts)).toEqual(new Set([IDS.W2, IDS.W3]));
    expect(after.learnings.every((r) => r.websiteId !== IDS.W1)).toBe(true);
    expect(ids(after.api_keys)).toEqual(ids(before.api_keys));
    expect(ids(after.websites)).toEqual(ids(before.websites));
    expect(after.business_entities.length).toBe(before.business_entities.length);
    expect(await store.ratePeek(IDS.keyEditorW1, now, HOUR)).toBeUndefined();
    expect((await store.ratePeek(w3Key, now, HOUR))?.count).toBe(1);
    await expect(resetStore(store, { websiteId: 'no-such-website' })).rejects.toBeInstanceOf(ResetError);
    expect((await store.snapshot()).social_posts.length).toBe(after.social_posts.length);
  });

  it('resets all data: the keys stay, with the users, agencies and websites they need; everything else goes', async () => {
    const made = await start();
    const { store } = made;
    const before = structuredClone(await store.snapshot());
    const counts = await resetStore(store, { allData: true });
    expect(counts.rate_windows).toBe('all');
    const check = async (s: ApiStore) => {
      const after = await s.snapshot();
      expect(ids(after.api_keys)).toEqual(ids(before.api_keys));
      for (const k of after.api_keys) {
        expect(await s.user(k.user_id)).toBeDefined();
        if (k.website_id) expect(await s.website(k.website_id)).toBeDefined();
        if (k.agency_id) expect(await s.agency(k.agency_id)).toBeDefined();
      }
      for (const w of after.websites) expect(await s.user(w.owner_id)).toBeDefined();
      for (const c of ['social_posts', 'learnings', 'business_entities', 'revenue_records', 'cost_items', 'crm_agents'] as const) expect(after[c], c).toEqual([]);
      expect(await s.financeRows(IDS.U1)).toEqual({ entities: [], records: [], costs: [] });
    };
    await check(store);
    if (!made.reopen) return;
    await store.close();
    const again = await made.reopen();
    open.push(again);
    await check(again);
  });
});
