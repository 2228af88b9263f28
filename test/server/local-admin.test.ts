import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/transport/fetch-handler.js';
import { openStore } from '../../src/server/store/open-store.js';
import { demoStore, DEMO } from '../../src/server/ops/seed.js';
import { buildApiKey } from '../../src/server/domain/keys.js';

/**
 * The local administration extension (docs/api-decisions.md, "Local server extensions"): only a loopback peer with an
 * admin key of the store gets an answer; it is no part of the OpenAPI document.
 */
const clock = { now: () => new Date('2026-11-22T10:00:00Z') };

async function setup() {
  const data = demoStore(clock);
  const demo = await openStore({ memory: data });
  const admin = await buildApiKey(demo, { role: 'admin', websiteId: DEMO.websiteId });
  const editor = await buildApiKey(demo, { role: 'editor', websiteId: DEMO.websiteId });
  data.api_keys.push(admin.record, editor.record);
  const store = await openStore({ memory: data });
  const app = createApp({ store, clock });
  // What a socket carrier hands the pipeline besides the request: the peer's address.
  const call = (path: string, o: { key?: string; peer?: string; method?: string; body?: string } = {}) => {
    const headers = { host: '127.0.0.1:4010', ...(o.key ? { authorization: `Bearer ${o.key}` } : {}), ...(o.body ? { 'content-type': 'application/json' } : {}) };
    return app.request(`http://127.0.0.1:4010${path}`, { method: o.method ?? 'GET', headers, body: o.body }, { peer: o.peer ?? '127.0.0.1' });
  };
  return { store, call, admin: admin.key, editor: editor.key };
}

describe('/_local (local administration)', () => {
  it('answers a loopback peer with an admin key; never shows a key hash', async () => {
    const { call, admin } = await setup();
    const res = await call('/_local/keys', { key: admin });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toContain('key_sha256');
  });

  it('a peer off loopback gets 404 even with an admin key; so does a request with no peer (in-process)', async () => {
    const { call, admin } = await setup();
    expect((await call('/_local/keys', { key: admin, peer: '192.168.1.20' })).status).toBe(404);
    expect((await call('/_local/keys', { key: admin, peer: '::ffff:10.0.0.5' })).status).toBe(404);
    expect((await call('/_local/keys', { key: admin, peer: '' })).status).toBe(404);
    expect((await call('/_local/keys', { key: admin, peer: '::1' })).status).toBe(200);
  });

  it('no key: 401; a key that is not an admin key: 403', async () => {
    const { call, editor } = await setup();
    expect((await call('/_local/keys')).status).toBe(401);
    const res = await call('/_local/keys', { key: editor });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
  });

  it('seed: every problem in one 400, nothing written; a good document upserts', async () => {
    const { call, admin, store } = await setup();
    const before = JSON.stringify(await store.snapshot());
    const bad = await call('/_local/seed', {
      key: admin,
      method: 'POST',
      body: JSON.stringify({ websites: [{ id: 'x' }], social_posts: [{ id: DEMO.draftPostId, websiteId: 'nowhere' }] }),
    });
    expect(bad.status).toBe(400);
    const problems = ((await bad.json()) as { problems: { path: string }[] }).problems.map((p) => p.path);
    expect(problems).toContain('$.websites[0].name');
    expect(problems).toContain('$.social_posts[0].status');
    expect(JSON.stringify(await store.snapshot())).toBe(before);
    const post = (await store.socialPost(DEMO.draftPostId))!;
    const good = await call('/_local/seed', { key: admin, method: 'POST', body: JSON.stringify({ social_posts: [{ ...post, content: 'from fixtures' }] }) });
    expect(good.status).toBe(200);
    expect(((await good.json()) as { data: unknown }).data).toEqual({ social_posts: { added: 0, replaced: 1 } });
    expect((await store.socialPost(DEMO.draftPostId))?.content).toBe('from fixtures');
  });

  it('seed: a key record with the hash of a key the store has is refused; the admin key keeps working', async () => {
    const { call, admin, store } = await setup();
    const own = (await store.apiKeys()).find((k) => k.role === 'admin')!;
    // Keys are found by hash, the later record winning: a revoked twin would lock the admin out.
    const twin = { ...own, id: 'twin', role: 'viewer', revoked_at: '2026-11-22T09:00:00Z' };
    const res = await call('/_local/seed', { key: admin, method: 'POST', body: JSON.stringify({ api_keys: [twin] }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(['$.api_keys[0].key_sha256']);
    expect((await call('/_local/keys', { key: admin })).status).toBe(200);
  });

  it('keys made and revoked through it work and stop working on the public API at once', async () => {
    const { call, admin } = await setup();
    const made = await call('/_local/keys', { key: admin, method: 'POST', body: JSON.stringify({ role: 'viewer', website_id: DEMO.websiteId }) });
    expect(made.status).toBe(201);
    const { id, key } = ((await made.json()) as { data: { id: string; key: string } }).data;
    expect((await call('/api/v1/intelligence/learnings', { key })).status).toBe(200);
    expect((await call(`/_local/keys/${id}/revoke`, { key: admin, method: 'POST' })).status).toBe(200);
    expect((await call('/api/v1/intelligence/learnings', { key })).status).toBe(401);
    const unknown = await call('/_local/keys', { key: admin, method: 'POST', body: JSON.stringify({ role: 'viewer', website_id: 'nowhere' }) });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { kind: string }).kind).toBe('unknown-website');
  });

  it('is not in the OpenAPI document', async () => {
    const { call } = await setup();
    const doc = await (await call('/api/v1/openapi.json')).text();
    expect(doc).not.toContain('_local');
  });

  it('reset: exactly one of website_id and all_data, an unknown website is a 400 naming it; a good one removes the website’s records', async () => {
    const { call, admin, store } = await setup();
    const before = JSON.stringify(await store.snapshot());
    for (const body of [{}, { website_id: DEMO.websiteId, all_data: true }, { all_data: 'yes' }]) {
      expect((await call('/_local/reset', { key: admin, method: 'POST', body: JSON.stringify(body) })).status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await call('/_local/reset', { key: admin, method: 'POST', body: JSON.stringify({ website_id: 'nowhere' }) });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: 'RESET_REQUEST', kind: 'unknown-website' });
    expect(JSON.stringify(await store.snapshot())).toBe(before);
    const good = await call('/_local/reset', { key: admin, method: 'POST', body: JSON.stringify({ website_id: DEMO.websiteId }) });
    expect(good.status).toBe(200);
    expect(((await good.json()) as { data: { removed: Record<string, number> } }).data.removed.social_posts).toBeGreaterThan(0);
    expect(await store.socialPost(DEMO.draftPostId)).toBeUndefined();
    expect((await store.apiKeys()).length).toBeGreaterThan(0);
  });
});
