import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DEMO, demoStore } from '../../src/server/ops/seed.js';
import { addApiKey, listKeys, revokeKey } from '../../src/server/domain/keys.js';
import { initStore } from '../../src/server/ops/init-store.js';
import { StoreError, StoreLockedError, serialize } from '../../src/server/store/store.js';
import { parseStoreText } from '../../src/server/store/validate-store.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { defaultStorePath, startServer } from '../../src/server/serve.js';
import { API_KEY_PATTERN } from '../../src/api/schemas/common.js';
import { request, tempDir } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const clock = fixedClock('2025-06-15T12:00:00Z');

describe('demo data', () => {
  it('is a valid store covering every collection', () => {
    const data = parseStoreText('demo', serialize(demoStore(clock)));
    for (const [name, list] of Object.entries(data)) if (Array.isArray(list) && name !== 'api_keys') expect(list.length, name).toBeGreaterThan(0);
    expect(data.agencies).toHaveLength(2);
    expect(data.nurture_sequences.filter((s) => s.websiteId === DEMO.websiteId).length).toBeGreaterThanOrEqual(120);
    expect(new Set(data.revenue_records.map((r) => r.billing_frequency))).toEqual(new Set(['monthly', 'quarterly', 'semi_annual', 'annual', null]));
    expect(new Set(data.learnings.map((l) => l.status))).toEqual(new Set(['candidate', 'testing', 'confirmed', 'rejected', 'archived']));
    expect(new Set(data.social_posts.map((p) => p.status))).toEqual(new Set(['draft', 'scheduled', 'publishing', 'published', 'failed']));
    const latest = data.visibility_scans.filter((s) => s.websiteId === DEMO.websiteId).sort((a, b) => (a.scanDate < b.scanDate ? 1 : -1))[0]!;
    expect(latest.keywords).toHaveLength(3);
    for (const k of latest.keywords) expect(k.gridPoints).toHaveLength(81);
    expect(latest.keywords.flatMap((k) => k.gridPoints).some((p) => p.rank === null)).toBe(true);
    expect(JSON.stringify(data.brand_subjects)).toMatch(/base64/);
    expect(data.api_keys).toEqual([]);
  });

  it('is the same for the same clock (stable ids)', () => {
    expect(serialize(demoStore(clock))).toBe(serialize(demoStore(clock)));
  });
});

describe('initStore / keys', () => {
  it('init --demo creates the store and an admin key that works against the server, shown once', async () => {
    const dir = await tempDir();
    const path = join(dir, 'store.json');
    const { key, storePath, websiteId } = await initStore(path, { demo: true, clock });
    expect(storePath).toBe(path);
    expect(key).toMatch(API_KEY_PATTERN);
    expect(websiteId).toBe(DEMO.websiteId);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(createHash('sha256').update(key).digest('hex'));

    const srv = await startServer({ storePath: path, port: 0, log: false, clock });
    cleanups.push(() => srv.close());
    const fin = await request(srv.url, 'GET', '/api/v1/finance/summary', { key });
    expect(fin.status).toBe(200);
    expect(fin.json.data.summaries.length).toBe(3);
    expect(fin.json.data.invoiceAlerts.some((a: any) => a.isOverdue)).toBe(true);
    const page = await request(srv.url, 'GET', '/api/v1/content/nurture-sequences?limit=200', { key });
    expect(page.json.data.total).toBe(120);
    const agents = await request(srv.url, 'GET', '/api/v1/integrations/crm/agents', { key });
    for (const a of agents.json.data.agents) if (a.activePromptVersion) expect(Array.from(a.activePromptVersion.promptText).length).toBeLessThanOrEqual(200);

    // while the server holds the store, key management refuses to touch it
    await expect(listKeys(path)).rejects.toThrow(StoreLockedError);
    await expect(initStore(path, { demo: true, force: true })).rejects.toThrow(StoreLockedError);
  });

  it('init refuses an existing store unless forced; force replaces even an invalid file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'store.json');
    await initStore(path, {});
    await expect(initStore(path, {})).rejects.toThrow(StoreError);
    await writeFile(path, '{broken');
    const { key } = await initStore(path, { force: true, demo: true, clock });
    expect(key).toMatch(API_KEY_PATTERN);
    expect(JSON.parse(await readFile(path, 'utf8')).websites).toHaveLength(4);
  });

  it('keys create / list / revoke; a revoked key gets 401', async () => {
    const dir = await tempDir();
    const path = join(dir, 'store.json');
    await initStore(path, { demo: true, clock });
    const viewer = await addApiKey(path, { role: 'viewer', agencyId: DEMO.agencyId, name: 'ci' });
    expect(viewer.record).toMatchObject({ role: 'viewer', agency_id: DEMO.agencyId, website_id: null, user_id: DEMO.ownerUserId, revoked_at: null });
    await expect(addApiKey(path, { role: 'viewer', websiteId: DEMO.websiteId, agencyId: DEMO.agencyId })).rejects.toThrow(/exactly one/);
    await expect(addApiKey(path, { role: 'viewer', websiteId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(/Unknown website/);
    await expect(addApiKey(path, { role: 'owner' as never, websiteId: DEMO.websiteId })).rejects.toThrow(/Unknown role/);
    const listed = await listKeys(path);
    expect(listed.map((k) => k.name)).toEqual(['local admin', 'ci']);
    expect(JSON.stringify(listed)).not.toMatch(/key_sha256|[0-9a-f]{64}/);
    const revoked = await revokeKey(path, viewer.record.id);
    expect(revoked.revoked_at).not.toBeNull();
    await expect(revokeKey(path, 'nope')).rejects.toThrow(/No API key/);

    const srv = await startServer({ storePath: path, port: 0, log: false, clock });
    cleanups.push(() => srv.close());
    const res = await request(srv.url, 'GET', `/api/v1/brand/brand-subjects?website_id=${DEMO.websiteId}`, { key: viewer.key });
    expect(res.status).toBe(401);
  });
});

describe('defaultStorePath', () => {
  it('CR_STORE, else XDG_DATA_HOME, else ~/.local/share', () => {
    expect(defaultStorePath({ CR_STORE: '/tmp/x/s.json' })).toBe('/tmp/x/s.json');
    expect(defaultStorePath({ XDG_DATA_HOME: '/data' })).toBe('/data/cr/store.json');
    expect(defaultStorePath({ HOME: '/home/u' })).toMatch(/\.local\/share\/cr\/store\.json$/);
  });
});
