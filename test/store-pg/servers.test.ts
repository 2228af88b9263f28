import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { createApiKey } from '../../src/server/domain/keys.js';
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';
import { freshDatabase } from '../helpers/postgres.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { soak } from '../helpers/soak.js';

/**
 * Three `cr serve` processes on one PostgreSQL database behave as one service
 * (docs/shared-sandbox.md): one rate-limit count per key, revocations and new keys seen by all
 * at once, a write through one read through another.
 *
 * The servers' rate limit: 200 requests a key in `npm test`, the default 1,000 in `npm run
 * test:soak`; one key sends a tenth more than it across the three servers.
 */
const LIMIT = soak(200, 1_000);
const SENT = LIMIT + LIMIT / 10;
const n = (x: number) => x.toLocaleString('en-US');
describe('several cr serve on one database', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let store: PgStore;
  let servers: ServeProcess[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    store = await PgStore.open(db.url, { max: 4 });
    await loadInto(store, JSON.parse(readFileSync(FIXTURE, 'utf8')));
    servers = await Promise.all([0, 1, 2].map(() => spawnServe(['--store', db.url, '--rate-limit', String(LIMIT)], { env: { CR_NOW: NOW } })));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.close();
    await db?.drop();
  });

  const get = (s: ServeProcess, key: string, path = '/intelligence/learnings') => fetch(`${s.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it(`answers exactly ${n(LIMIT)} of ${n(SENT)} requests of one key spread over three servers, and refuses ${n(SENT - LIMIT)} with 429`, async () => {
    const { key } = await createApiKey(store, { role: 'viewer', websiteId: IDS.W1 });
    const statuses: number[] = [];
    let next = 0;
    // 24 clients at a time, round-robin over the servers: bounded in count and time.
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < SENT) {
          const i = next++;
          const res = await get(servers[i % 3]!, key);
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(SENT - LIMIT);
    const last = await get(servers[1]!, key);
    expect(last.status).toBe(429);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
  }, 120_000);

  it('accepts a key made elsewhere on every server at once, and refuses it everywhere once revoked', async () => {
    const made = await createApiKey(store, { role: 'editor', websiteId: IDS.W1 });
    for (const s of servers) expect((await get(s, made.key)).status).toBe(200);
    await store.commit([{ op: 'patch', collection: 'api_keys', id: made.record.id, patch: { revoked_at: new Date().toISOString() } }]);
    for (const s of servers) {
      const res = await get(s, made.key);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_API_KEY');
    }
  });

  it('reads through one server what another just wrote', async () => {
    const at = '2025-07-01T09:00:00.000Z';
    const res = await fetch(`${servers[0]!.baseUrl}/social/posts/${IDS.postDraft}/schedule`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scheduled_at: at }),
    });
    expect(res.status).toBe(200);
    const post = await store.socialPost(IDS.postDraft);
    expect(post?.status).toBe('scheduled');
    expect(post?.scheduledAt).toBe(at);
    // The same post scheduled again through another server finds it scheduled (no stale copy).
    const again = await fetch(`${servers[2]!.baseUrl}/social/posts/${IDS.postDraft}/schedule`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scheduled_at: at }),
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { status: string } }).data.status).toBe('scheduled');
  });
});
