import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { newAdCreativeView } from '../../src/api/ad-creative.js';
import { IDS, KEYS, NOW, startFixtureServer } from './helpers.js';
import type { ReqOptions } from './helpers.js';
import { startInProcessFixture } from './in-process-fixture.js';
import { startFetchFixture } from './fetch-fixture.js';
import { startPgFixture } from './pg-fixture.js';
import type { FixtureTarget } from './in-process-fixture.js';

/**
 * docs/api-decisions.md §1–§6, one table row per line, against the real server (fixture store in
 * a temp folder, clock fixed at 2025-06-15T12:00:00Z), over every carrier of the request
 * pipeline (src/server/app/pipeline.ts): HTTP (127.0.0.1:0), --local's in-process carrier, and the
 * Fetch handler (src/server/transport/fetch-handler.ts), which must answer every row the same way.
 */
const carriers = {
  HTTP: startFixtureServer,
  'in-process (--local)': startInProcessFixture,
  'Fetch handler': startFetchFixture,
  'HTTP over PostgreSQL': startPgFixture,
};

const onDatabase = (srv: FixtureTarget) => srv.path.startsWith('postgres://');

/** A collection as stored: the store file after a fold, or the database's rows. */
async function persisted(srv: FixtureTarget, collection: 'ad_creatives' | 'social_posts'): Promise<any[]> {
  if (onDatabase(srv)) return [...(await srv.operations.store.snapshot())[collection]];
  await srv.store.compact(); // fold the journal into the store file
  return JSON.parse(await readFile(srv.path, 'utf8'))[collection];
}

const V = '/api/v1';
const adBody = { ad_format: 'single_image', name: 'Summer creative', destination_url: 'https://acme.example/landing' };
const listenerBody = { name: 'Feed', source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } };
const future = '2025-07-01T09:00:00Z';

function deep(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

interface Row {
  name: string;
  method: string;
  path: string;
  o?: ReqOptions;
  status: number;
  error: string;
  code: string | null; // null: the code field must be absent
  details?: string[]; // expected detail paths (subset)
  rateHeaders?: boolean;
  headers?: Record<string, string>;
}

const rows: Row[] = [
  // 401
  { name: 'missing key', method: 'GET', path: `${V}/finance/summary`, status: 401, error: 'Invalid API key', code: 'INVALID_API_KEY', rateHeaders: false },
  { name: 'malformed key (uppercase hex)', method: 'GET', path: `${V}/finance/summary`, o: { key: 'cr_' + 'A'.repeat(40) }, status: 401, error: 'Invalid API key', code: 'INVALID_API_KEY' },
  { name: 'malformed key (short)', method: 'GET', path: `${V}/finance/summary`, o: { key: 'cr_abc' }, status: 401, error: 'Invalid API key', code: 'INVALID_API_KEY' },
  {
    name: 'not a Bearer header',
    method: 'GET',
    path: `${V}/finance/summary`,
    o: { headers: { authorization: `Basic ${KEYS.adminW1}` } },
    status: 401,
    error: 'Invalid API key',
    code: 'INVALID_API_KEY',
  },
  { name: 'unknown key', method: 'GET', path: `${V}/finance/summary`, o: { key: KEYS.unknown }, status: 401, error: 'Invalid API key', code: 'INVALID_API_KEY' },
  { name: 'revoked key', method: 'GET', path: `${V}/finance/summary`, o: { key: KEYS.revoked }, status: 401, error: 'Invalid API key', code: 'INVALID_API_KEY' },
  // 400 validation
  {
    name: 'body fails validation',
    method: 'POST',
    path: `${V}/content/ads/creatives/create`,
    o: { key: KEYS.editorW1, body: { ad_format: 'hologram', destination_url: 'ftp://x' } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['ad_format', 'name', 'destination_url'],
  },
  {
    name: 'every offending path, the source rules included',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, body: { ...listenerBody, name: 7, poll_interval: '2h', query_config: { feed_url: 'ftp://x' } } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['name', 'poll_interval', 'query_config.feed_url'],
  },
  {
    name: 'nested body path is dot-joined',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, body: { ...listenerBody, query_config: { feed_url: 'mailto:a@b' } } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['query_config.feed_url'],
  },
  {
    name: 'query fails validation',
    method: 'GET',
    path: `${V}/content/nurture-sequences?limit=201`,
    o: { key: KEYS.viewerW1 },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['limit'],
  },
  {
    name: 'path fails validation',
    method: 'POST',
    path: `${V}/social/posts/not-a-uuid/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['id'],
  },
  { name: 'invalid JSON', method: 'POST', path: `${V}/content/listeners`, o: { key: KEYS.editorW1, rawBody: '{"name": ' }, status: 400, error: 'Invalid JSON body', code: 'BAD_REQUEST' },
  {
    name: 'nested deeper than 32 levels',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, body: { ...listenerBody, query_config: { feed_url: 'https://f.example/', x: deep(40) } } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
  },
  {
    name: 'string over 64 KiB',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, body: { ...listenerBody, query_config: { feed_url: 'https://f.example/', note: 'x'.repeat(64 * 1024 + 1) } } },
    status: 400,
    error: 'Validation error',
    code: 'BAD_REQUEST',
    details: ['query_config.note'],
  },
  // 403
  {
    name: 'role below minimum',
    method: 'POST',
    path: `${V}/content/ads/creatives/create`,
    o: { key: KEYS.viewerW1, body: adBody },
    status: 403,
    error: 'Insufficient role: editor required',
    code: 'FORBIDDEN',
  },
  {
    name: 'website outside the key scope',
    method: 'GET',
    path: `${V}/intelligence/learnings?website_id=${IDS.W2}`,
    o: { key: KEYS.viewerW1 },
    status: 403,
    error: 'Website not in key scope',
    code: 'FORBIDDEN',
  },
  {
    name: 'foreign Host',
    method: 'GET',
    path: `${V}/finance/summary`,
    o: { key: KEYS.adminW1, headers: { host: 'evil.example:4010' } },
    status: 403,
    error: 'Forbidden host or origin',
    code: 'FORBIDDEN',
    rateHeaders: false,
  },
  {
    name: 'foreign Origin',
    method: 'GET',
    path: `${V}/finance/summary`,
    o: { key: KEYS.adminW1, headers: { origin: 'http://evil.example' } },
    status: 403,
    error: 'Forbidden host or origin',
    code: 'FORBIDDEN',
    rateHeaders: false,
  },
  {
    name: 'foreign Host on an unknown route too',
    method: 'GET',
    path: `${V}/nope`,
    o: { headers: { host: 'rebind.example' } },
    status: 403,
    error: 'Forbidden host or origin',
    code: 'FORBIDDEN',
    rateHeaders: false,
  },
  // 404
  {
    name: 'unknown social post (no code field)',
    method: 'POST',
    path: `${V}/social/posts/${IDS.unknownPost}/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 404,
    error: 'Not found',
    code: null,
  },
  {
    name: 'social post outside scope (no code field)',
    method: 'POST',
    path: `${V}/social/posts/${IDS.postDraftW3}/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 404,
    error: 'Not found',
    code: null,
  },
  { name: 'unknown route', method: 'GET', path: `${V}/does/not/exist`, o: { key: KEYS.adminW1 }, status: 404, error: 'Not found', code: 'NOT_FOUND', rateHeaders: false },
  { name: 'outside the version prefix', method: 'GET', path: '/finance/summary', status: 404, error: 'Not found', code: 'NOT_FOUND', rateHeaders: false },
  // 405
  {
    name: 'wrong method on a known route',
    method: 'POST',
    path: `${V}/finance/summary`,
    o: { key: KEYS.adminW1, body: {} },
    status: 405,
    error: 'Method not allowed',
    code: 'METHOD_NOT_ALLOWED',
    rateHeaders: false,
  },
  { name: 'GET on a write route', method: 'GET', path: `${V}/content/listeners`, status: 405, error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED', rateHeaders: false },
  // 409
  {
    name: 'scheduling a published post',
    method: 'POST',
    path: `${V}/social/posts/${IDS.postPublished}/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 409,
    error: 'Post is published; only draft or scheduled posts can be scheduled',
    code: 'INVALID_STATE',
  },
  {
    name: 'scheduling a failed post',
    method: 'POST',
    path: `${V}/social/posts/${IDS.postFailed}/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 409,
    error: 'Post is failed; only draft or scheduled posts can be scheduled',
    code: 'INVALID_STATE',
  },
  {
    name: 'scheduling a publishing post',
    method: 'POST',
    path: `${V}/social/posts/${IDS.postPublishing}/schedule`,
    o: { key: KEYS.editorW1, body: { scheduled_at: future } },
    status: 409,
    error: 'Post is publishing; only draft or scheduled posts can be scheduled',
    code: 'INVALID_STATE',
  },
  // 413
  {
    name: 'body larger than 1 MiB (Content-Length)',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, rawBody: Buffer.alloc(1024 * 1024 + 1, 0x20) },
    status: 413,
    error: 'Payload too large',
    code: 'PAYLOAD_TOO_LARGE',
    rateHeaders: false,
  },
  {
    name: 'body larger than 1 MiB (chunked)',
    method: 'POST',
    path: `${V}/content/listeners`,
    o: { key: KEYS.editorW1, rawBody: Buffer.alloc(2 * 1024 * 1024, 0x20), chunked: true },
    status: 413,
    error: 'Payload too large',
    code: 'PAYLOAD_TOO_LARGE',
    rateHeaders: false,
  },
];

describe.each(Object.keys(carriers) as (keyof typeof carriers)[])('over %s', (carrier) => {
  let srv: FixtureTarget;
  beforeAll(async () => {
    srv = await carriers[carrier]();
  });
  // Stopping the PostgreSQL fixture drops its database, which forces a checkpoint: on a busy
  // disk that alone has taken past the default 20 s hook timeout.
  afterAll(async () => {
    await srv.stop();
  }, 60_000);

  describe('decisions §1: status, envelope and code of every error', () => {
    it.each(rows)('$name → $status', async (row) => {
      const res = await srv.req(row.method, row.path, row.o);
      expect(res.status).toBe(row.status);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json.success).toBe(false);
      expect(res.json.error).toBe(row.error);
      if (row.code === null) expect(Object.keys(res.json)).not.toContain('code');
      else expect(res.json.code).toBe(row.code);
      if (row.details) {
        const paths = (res.json.details as { path: string; message: string }[]).map((d) => d.path);
        for (const p of row.details) expect(paths).toContain(p);
        for (const d of res.json.details) expect(typeof d.message).toBe('string');
      }
      if (row.rateHeaders === false || row.status === 401) expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      else {
        expect(res.headers['x-ratelimit-limit']).toBe('1000');
        expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(1000);
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      }
      expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack
    });

    it('405 names the allowed method', async () => {
      const res = await srv.req('DELETE', `${V}/intelligence/learnings`);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET');
    });

    it('an answer to HEAD has no body, as over HTTP', async () => {
      const res = await srv.req('HEAD', `${V}/content/listeners`, { key: KEYS.adminW1 });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.text).toBe('');
    });

    it('loopback Host and Origin forms are accepted', async () => {
      for (const host of ['localhost:4010', '127.0.0.1', '[::1]:9']) {
        const res = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1, headers: { host, origin: 'http://localhost:3000' } });
        expect(res.status, host).toBe(200);
      }
    });

    it('every answer carries the Date of the business clock, errors and refusals too', async () => {
      const answers = [
        await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1 }),
        await srv.req('GET', `${V}/finance/summary`),
        await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1, headers: { host: 'evil.example' } }),
        await srv.req('GET', `${V}/no-such-path`, { key: KEYS.adminW1 }),
      ];
      for (const res of answers) expect(res.headers.date, String(res.status)).toBe(new Date(NOW).toUTCString());
    });

    it('anything unexpected → 500 Internal error with no internals', async () => {
      const store = srv.operations.store as any;
      const original = store.crmAgents;
      store.crmAgents = () => {
        throw new Error('secret internal detail /home/x/store.ts');
      };
      try {
        // (not the finance summary: it is cached per store generation and would not call list)
        const res = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.adminW1 });
        expect(res.status).toBe(500);
        expect(res.json).toEqual({ success: false, error: 'Internal error', code: 'INTERNAL_ERROR' });
        expect(res.text).not.toContain('secret');
        expect(res.headers['x-ratelimit-limit']).toBe('1000');
      } finally {
        store.crmAgents = original;
      }
    });

    it('success is 200 with {success: true, data} for reads and writes (creation included)', async () => {
      const read = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.viewerW1 });
      expect(read.status).toBe(200);
      expect(read.json.success).toBe(true);
      expect(Array.isArray(read.json.data.agents)).toBe(true);
      const write = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: listenerBody });
      expect(write.status).toBe(200);
      expect(write.json.success).toBe(true);
      expect(write.json.data.name).toBe('Feed');
    });

    describe('checks run in the order Host/Origin, key, rate limit, role, validation, scope, lookup, state', () => {
      const order: { name: string; method: string; path: string; o: ReqOptions; status: number }[] = [
        { name: 'foreign host beats a missing key', method: 'GET', path: `${V}/finance/summary`, o: { headers: { host: 'evil.example' } }, status: 403 },
        { name: 'key beats role and validation', method: 'POST', path: `${V}/content/ads/creatives/create`, o: { key: KEYS.unknown, body: {} }, status: 401 },
        { name: 'role beats validation', method: 'POST', path: `${V}/content/ads/creatives/create`, o: { key: KEYS.viewerW1, rawBody: 'not json' }, status: 403 },
        { name: 'validation beats scope', method: 'POST', path: `${V}/content/ads/creatives/create`, o: { key: KEYS.editorW1, body: { website_id: IDS.W3 } }, status: 400 },
        { name: 'scope beats lookup', method: 'GET', path: `${V}/gbp/visibility?website_id=${IDS.W3}`, o: { key: KEYS.viewerAgency }, status: 403 },
        {
          name: 'validation (past time) beats lookup',
          method: 'POST',
          path: `${V}/social/posts/${IDS.unknownPost}/schedule`,
          o: { key: KEYS.editorW1, body: { scheduled_at: '2025-06-15T11:59:59Z' } },
          status: 400,
        },
        { name: 'lookup beats state', method: 'POST', path: `${V}/social/posts/${IDS.postDraftW3}/schedule`, o: { key: KEYS.editorAgency, body: { scheduled_at: future } }, status: 404 },
      ];
      it.each(order)('$name', async (r) => {
        const res = await srv.req(r.method, r.path, r.o);
        expect(res.status).toBe(r.status);
      });
    });
  });

  describe('decisions §2: authentication, scope, roles', () => {
    it('the store holds only sha256 of keys, never a plain key', async () => {
      const text = onDatabase(srv) ? JSON.stringify(await srv.operations.store.snapshot()) : await readFile(srv.path, 'utf8');
      for (const k of Object.values(KEYS)) expect(text).not.toContain(k);
      const { createHash } = await import('node:crypto');
      expect(text).toContain(createHash('sha256').update(KEYS.editorW1).digest('hex'));
    });

    const scope: { name: string; key: string; method: string; path: string; body?: unknown; status: number; detail?: string }[] = [
      { name: 'single-website key, website_id omitted → its website', key: KEYS.viewerW1, method: 'GET', path: `${V}/intelligence/learnings`, status: 200 },
      { name: 'single-website key, its own website_id given', key: KEYS.viewerW1, method: 'GET', path: `${V}/intelligence/learnings?website_id=${IDS.W1}`, status: 200 },
      { name: 'single-website key, other website → 403', key: KEYS.viewerW1, method: 'GET', path: `${V}/content/nurture-sequences?website_id=${IDS.W2}`, status: 403 },
      { name: 'agency key, single endpoint without website_id → 400 website_id', key: KEYS.viewerAgency, method: 'GET', path: `${V}/gbp/visibility`, status: 400, detail: 'website_id' },
      { name: 'agency key, website of its agency', key: KEYS.viewerAgency, method: 'GET', path: `${V}/gbp/visibility?website_id=${IDS.W2}`, status: 200 },
      { name: 'agency key, website of another agency → 403', key: KEYS.viewerAgency, method: 'GET', path: `${V}/intelligence/learnings?website_id=${IDS.W3}`, status: 403 },
      { name: 'agency key, unknown website → 403', key: KEYS.viewerAgency, method: 'GET', path: `${V}/intelligence/learnings?website_id=${IDS.unknownPost}`, status: 403 },
      {
        name: 'agency editor creates an ad without website_id → 400 website_id',
        key: KEYS.editorAgency,
        method: 'POST',
        path: `${V}/content/ads/creatives/create`,
        body: adBody,
        status: 400,
        detail: 'website_id',
      },
      {
        name: 'agency editor creates an ad on its agency website (body website_id)',
        key: KEYS.editorAgency,
        method: 'POST',
        path: `${V}/content/ads/creatives/create`,
        body: { ...adBody, website_id: IDS.W2 },
        status: 200,
      },
      { name: 'agency editor creates a listener with query website_id', key: KEYS.editorAgency, method: 'POST', path: `${V}/content/listeners?website_id=${IDS.W2}`, body: listenerBody, status: 200 },
      {
        name: 'agency editor creates a listener with body website_id',
        key: KEYS.editorAgency,
        method: 'POST',
        path: `${V}/content/listeners`,
        body: { ...listenerBody, website_id: IDS.W1 },
        status: 200,
      },
      { name: 'agency editor, listener on another agency website → 403', key: KEYS.editorAgency, method: 'POST', path: `${V}/content/listeners?website_id=${IDS.W3}`, body: listenerBody, status: 403 },
      { name: 'viewer agency key cannot write (403 before scope)', key: KEYS.viewerAgency, method: 'POST', path: `${V}/content/listeners?website_id=${IDS.W3}`, body: listenerBody, status: 403 },
      { name: 'editor may read', key: KEYS.editorW1, method: 'GET', path: `${V}/brand/brand-subjects`, status: 200 },
      { name: 'admin may write', key: KEYS.adminW1, method: 'POST', path: `${V}/social/posts/${IDS.postDraft}/schedule`, body: { scheduled_at: future }, status: 200 },
      { name: 'agency key schedules a post of its agency', key: KEYS.editorAgency, method: 'POST', path: `${V}/social/posts/${IDS.postDraftW2}/schedule`, body: { scheduled_at: future }, status: 200 },
      {
        name: 'single-website key cannot see another website post → 404',
        key: KEYS.editorW1,
        method: 'POST',
        path: `${V}/social/posts/${IDS.postDraftW2}/schedule`,
        body: { scheduled_at: future },
        status: 404,
      },
      { name: 'filter endpoint with out-of-scope website_id → 403', key: KEYS.viewerAgency, method: 'GET', path: `${V}/brand/brand-subjects?website_id=${IDS.W3}`, status: 403 },
    ];
    it.each(scope)('$name', async (r) => {
      const res = await srv.req(r.method, r.path, { key: r.key, body: r.body });
      expect(res.status).toBe(r.status);
      if (r.status === 403 && r.method === 'GET') expect(res.json.error).toBe('Website not in key scope');
      if (r.detail) expect(res.json.details.map((d: { path: string }) => d.path)).toEqual([r.detail]);
    });

    it('list endpoints without declared parameters return everything in scope, optionally filtered', async () => {
      const all = await srv.req('GET', `${V}/brand/brand-subjects`, { key: KEYS.viewerAgency });
      expect(all.json.data.map((s: { id: string }) => s.id).sort()).toEqual(['bs1', 'bs2', 'bs3']);
      const one = await srv.req('GET', `${V}/brand/brand-subjects?website_id=${IDS.W2}`, { key: KEYS.viewerAgency });
      expect(one.json.data.map((s: { id: string }) => s.id)).toEqual(['bs3']);
      const single = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.viewerW1 });
      expect(single.json.data.agents.map((a: { id: string }) => a.id)).toEqual(['ag1', 'ag2']);
      const agency = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.viewerAgency });
      expect(agency.json.data.agents.map((a: { id: string }) => a.id)).toEqual(['ag1', 'ag2', 'ag3']);
      const other = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.editorW3 });
      expect(other.json.data.agents).toEqual([]);
    });

    it("finance belongs to the key's user, whatever the website scope", async () => {
      const a = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.viewerAgency });
      const b = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.viewerW1 });
      expect(a.json.data.summaries.map((s: any) => s.entity.name)).toEqual(['Acme Studio', 'Beta Works']);
      expect(b.json.data).toEqual(a.json.data);
      const z = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.editorW3 });
      expect(z.json.data.summaries.map((s: any) => s.entity.name)).toEqual(['Zeta Holdings']);
      expect(z.json.data.summaries[0].monthlyAiCostCents).toBe(700);
    });
  });

  describe('decisions §4: query parameter names and rules', () => {
    const q = (path: string, key: string = KEYS.viewerW1) => srv.req('GET', `${V}${path}`, { key });
    it.each([
      ['/intelligence/learnings?dimension_type=hook', 200],
      ['/intelligence/learnings?dimension_type=banana', 400],
      ['/intelligence/learnings?limit=1', 200],
      ['/intelligence/learnings?limit=200', 200],
      ['/intelligence/learnings?limit=0', 400],
      ['/intelligence/learnings?limit=201', 400],
      ['/intelligence/learnings?limit=abc', 400],
      ['/intelligence/learnings?limit=1.5', 400],
      ['/content/nurture-sequences?status=active', 200],
      ['/content/nurture-sequences?status=deleted', 400],
      ['/content/nurture-sequences?limit=200', 200],
      ['/content/nurture-sequences?limit=201', 400],
      ['/content/nurture-sequences?offset=0', 200],
      ['/content/nurture-sequences?offset=-1', 400],
      ['/gbp/visibility?keyword=teeth%20whitening', 200],
      ['/gbp/visibility?website_id=not-a-uuid', 400],
    ] as const)('%s → %i', async (path, status) => {
      const res = await q(path);
      expect(res.status).toBe(status);
      if (status === 400) {
        const name = /\?(\w+)=/.exec(path)![1]!;
        expect(res.json.details.map((d: { path: string }) => d.path)).toContain(name);
      }
    });

    it('defaults: learnings limit 50, nurture limit 50 offset 0', async () => {
      const n = await q('/content/nurture-sequences');
      expect(n.json.data).toMatchObject({ limit: 50, offset: 0, total: 5 });
      const l = await q('/intelligence/learnings?limit=1');
      expect(l.json.data.learnings).toHaveLength(1);
      expect(l.json.data.total).toBe(3);
    });

    it('keyword is an exact, case-insensitive match', async () => {
      const exact = await q('/gbp/visibility?keyword=TEETH%20WHITENING');
      expect(exact.json.data.keywords.map((k: any) => k.keyword)).toEqual(['Teeth Whitening']);
      const partial = await q('/gbp/visibility?keyword=teeth');
      expect(partial.json.data.keywords).toEqual([]);
      expect(partial.json.data.scanDate).toBe('2025-06-01');
    });
  });

  describe('decisions §5: request bodies', () => {
    it('ad creative: defaults, campaign platform and name, response fields only', async () => {
      const res = await srv.req('POST', `${V}/content/ads/creatives/create`, {
        key: KEYS.editorW1,
        body: { ...adBody, campaign_id: 'camp-summer', headline: 'H', description: 'D', image_urls: ['https://cdn.example/a.png'], extra_field: 'ignored' },
      });
      expect(res.status).toBe(200);
      const d = res.json.data;
      // Every field of the response; the metrics start at zero (src/api/ad-creative.ts).
      expect(d).toEqual(
        newAdCreativeView({
          id: d.id,
          platform: 'google',
          adFormat: 'single_image',
          name: 'Summer creative',
          campaignId: 'camp-summer',
          campaignName: 'Summer sale',
          destinationUrl: 'https://acme.example/landing',
          imageUrls: ['https://cdn.example/a.png'],
          createdAt: '2025-06-15T12:00:00.000Z',
        }),
      );
      expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
      for (const leaked of ['websiteId', 'headline', 'description', 'productLineId', 'extra_field']) expect(d).not.toHaveProperty(leaked);
      const stored = (await persisted(srv, 'ad_creatives')).find((c: any) => c.id === d.id);
      expect(stored).toMatchObject({ websiteId: IDS.W1, headline: 'H', description: 'D' });
    });

    it.each([
      [{ platform: 'linkedin', campaign_id: 'camp-summer' }, 'linkedin', 'Summer sale'],
      [{ campaign_id: 'unknown-campaign' }, 'meta', ''],
      [{ campaign_id: 'camp-bakery' }, 'meta', ''], // a campaign of another website is not "known" here
      [{}, 'meta', ''],
    ])('ad creative platform/campaignName for %j', async (extra, platform, campaignName) => {
      const res = await srv.req('POST', `${V}/content/ads/creatives/create`, { key: KEYS.editorW1, body: { ...adBody, ...extra } });
      expect(res.json.data.platform).toBe(platform);
      expect(res.json.data.campaignName).toBe(campaignName);
      expect(res.json.data.campaignId).toBe((extra as { campaign_id?: string }).campaign_id ?? '');
      expect(res.json.data.imageUrls).toEqual([]);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ headline: 'x'.repeat(301) }, 'headline'],
      [{ description: 'x'.repeat(2001) }, 'description'],
      [{ image_urls: Array(21).fill('https://a.example/x.png') }, 'image_urls'],
      [{ image_urls: ['javascript:alert(1)'] }, 'image_urls.0'],
      [{ product_line_id: 'nope' }, 'product_line_id'],
      [{ platform: 'myspace' }, 'platform'],
    ])('ad creative rejects %j at %s', async (extra, path) => {
      const res = await srv.req('POST', `${V}/content/ads/creatives/create`, { key: KEYS.editorW1, body: { ...adBody, ...extra } });
      expect(res.status).toBe(400);
      expect(res.json.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('listener: enabled, never polled, nextPollAt = createdAt + interval, poll_interval default 24h', async () => {
      const res = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: listenerBody });
      expect(res.json.data).toMatchObject({
        websiteId: IDS.W1,
        name: 'Feed',
        sourceType: 'rss',
        queryConfig: { feed_url: 'https://feed.example/rss' },
        pollInterval: '24h',
        createdAt: '2025-06-15T12:00:00.000Z',
        updatedAt: '2025-06-15T12:00:00.000Z',
        nextPollAt: '2025-06-16T12:00:00.000Z',
        lastPolledAt: null,
        lastItemCount: 0,
        enabled: true,
      });
      const hourly = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: { ...listenerBody, poll_interval: '1h' } });
      expect(hourly.json.data.nextPollAt).toBe('2025-06-15T13:00:00.000Z');
      const weekly = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: { ...listenerBody, poll_interval: '7d' } });
      expect(weekly.json.data.nextPollAt).toBe('2025-06-22T12:00:00.000Z');
    });

    it.each([
      ['reddit', { subreddit: 'x' }, 200],
      ['reddit', { keywords: ['a'] }, 200],
      ['reddit', { channel_id: 'x' }, 400],
      ['youtube', { channel_id: 'UC1' }, 200],
      ['google_news', { keywords: ['a', 'b'] }, 200],
      ['google_search', {}, 400],
      ['quora', { keywords: [] }, 400],
      ['quora', { keywords: [''] }, 400],
      ['rss', { feed_url: 'https://x.example/feed' }, 200],
      ['rss', { feed_url: 'file:///etc/passwd' }, 400],
      ['linkedin', { company: 'acme' }, 200],
      ['x', { handle: '@acme' }, 200],
      ['pinterest', { board: 'b' }, 200],
      ['pinterest', { handle: 'b' }, 400],
    ] as const)('listener %s with query_config %j → %i', async (source_type, query_config, status) => {
      const res = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: { name: 'L', source_type, query_config } });
      expect(res.status).toBe(status);
      if (status === 400) expect(res.json.details[0].path).toMatch(/^query_config/);
    });

    it('listener: missing fields and bad enums are named', async () => {
      const res = await srv.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: { poll_interval: '2h' } });
      expect(res.status).toBe(400);
      const paths = res.json.details.map((d: { path: string }) => d.path);
      expect(paths).toEqual(expect.arrayContaining(['name', 'source_type', 'query_config', 'poll_interval']));
    });

    it('schedule: draft → scheduled, then rescheduled with the same response shape', async () => {
      const first = await srv.req('POST', `${V}/social/posts/${IDS.postDraft}/schedule`, { key: KEYS.editorW1, body: { scheduled_at: '2025-06-20T10:00:00+02:00' } });
      expect(first.status).toBe(200);
      expect(first.json.data).toEqual({ id: IDS.postDraft, status: 'scheduled', scheduledAt: '2025-06-20T10:00:00+02:00' });
      const again = await srv.req('POST', `${V}/social/posts/${IDS.postDraft}/schedule`, { key: KEYS.editorW1, body: { scheduled_at: '2025-06-21T10:00:00Z' } });
      expect(again.json.data).toEqual({ id: IDS.postDraft, status: 'scheduled', scheduledAt: '2025-06-21T10:00:00Z' });
      const resched = await srv.req('POST', `${V}/social/posts/${IDS.postScheduled}/schedule`, { key: KEYS.editorW1, body: { scheduled_at: future } });
      expect(resched.json.data.status).toBe('scheduled');
      const stored = (await persisted(srv, 'social_posts')).find((p: any) => p.id === IDS.postDraft);
      expect(stored).toMatchObject({ status: 'scheduled', scheduledAt: '2025-06-21T10:00:00Z', updatedAt: '2025-06-15T12:00:00.000Z' });
    });

    it.each([
      ['2025-06-15T12:00:00Z', 'now is not the future'],
      ['2025-06-01T00:00:00Z', 'past'],
      ['2025-07-01T09:00:00', 'no offset'],
      ['2025-07-01', 'a date only'],
      ['tomorrow', 'not a date-time'],
    ])('schedule refuses scheduled_at %s (%s) with details path scheduled_at', async (scheduled_at) => {
      const res = await srv.req('POST', `${V}/social/posts/${IDS.postScheduled}/schedule`, { key: KEYS.editorW1, body: { scheduled_at } });
      expect(res.status).toBe(400);
      expect(res.json.details.map((d: { path: string }) => d.path)).toEqual(['scheduled_at']);
    });

    it('schedule with an empty body names scheduled_at', async () => {
      const res = await srv.req('POST', `${V}/social/posts/${IDS.postScheduled}/schedule`, { key: KEYS.editorW1 });
      expect(res.status).toBe(400);
      expect(res.json.details.map((d: { path: string }) => d.path)).toEqual(['scheduled_at']);
    });

    it('__proto__ in a body never reaches a prototype', async () => {
      const res = await srv.req('POST', `${V}/content/listeners`, {
        key: KEYS.editorW1,
        rawBody: '{"name":"P","source_type":"rss","query_config":{"feed_url":"https://x.example/","__proto__":{"polluted":true}},"__proto__":{"polluted":true}}',
      });
      expect(res.status).toBe(200);
      expect(({} as any).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(res.json.data.queryConfig)).toBe(Object.prototype);
      expect(Object.keys(res.json.data.queryConfig)).toEqual(['feed_url']);
    });
  });

  describe('decisions §6: what the read endpoints compute (over HTTP)', () => {
    it('finance summary of the fixture, by hand', async () => {
      const res = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.viewerW1 });
      const [acme, beta] = res.json.data.summaries;
      // 10000 + round(10000/3)=3333 + round(10000/6)=1667 + round(10000/12)=833 + 5000 (null = monthly)
      expect(acme).toMatchObject({ activeMrr: 20833, activeClientCount: 5, nextRenewalDate: '2025-06-15', monthlyCostCents: 13500, monthlyAiCostCents: 1500 });
      expect(acme.entity).toEqual({ id: 'e0000000-0000-4000-8000-000000000001', name: 'Acme Studio', accounting_tenant_id: 'xero-123', owner_id: IDS.U1, created_at: '2024-01-01T00:00:00Z' });
      expect(beta).toMatchObject({ activeMrr: 2000, activeClientCount: 1, nextRenewalDate: null, monthlyCostCents: 0, monthlyAiCostCents: 0 });
      const alerts = res.json.data.invoiceAlerts.map((a: any) => [a.revenueRecord.client_name, a.entityName, a.daysUntilDue, a.isOverdue]);
      expect(alerts).toEqual([
        ['Northwind', 'Acme Studio', -3, true],
        ['Northwind', 'Acme Studio', 0, false],
        ['Gamma', 'Beta Works', 5, false],
        ['Orchid', 'Acme Studio', 7, false],
      ]);
    });

    it('learnings: confirmed with ≥2 evidence, confidence desc then createdAt desc, total before limit', async () => {
      const res = await srv.req('GET', `${V}/intelligence/learnings`, { key: KEYS.viewerW1 });
      expect(res.json.data.learnings.map((l: any) => l.id)).toEqual(['l2', 'l1', 'l8']);
      expect(res.json.data.total).toBe(3);
      expect(res.json.data.learnings[0]).not.toHaveProperty('websiteId');
      const hooks = await srv.req('GET', `${V}/intelligence/learnings?dimension_type=hook&limit=1`, { key: KEYS.viewerW1 });
      expect(hooks.json.data).toMatchObject({ total: 2, learnings: [{ id: 'l1' }] });
    });

    it('nurture: updatedAt desc, stepCount, status filter, paging', async () => {
      const res = await srv.req('GET', `${V}/content/nurture-sequences?limit=2&offset=1`, { key: KEYS.viewerW1 });
      expect(res.json.data).toEqual({
        sequences: [
          { contentId: 'n2', title: 'Recall', status: 'draft', stepCount: 1, createdAt: '2025-01-02T00:00:00Z', updatedAt: '2025-06-05T00:00:00Z' },
          { contentId: 'n1', title: 'Welcome', status: 'active', stepCount: 3, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-06-01T00:00:00Z' },
        ],
        total: 5,
        limit: 2,
        offset: 1,
      });
      const active = await srv.req('GET', `${V}/content/nurture-sequences?status=active`, { key: KEYS.viewerW1 });
      expect(active.json.data.sequences.map((s: any) => s.contentId)).toEqual(['n4', 'n1']);
      expect(active.json.data.total).toBe(2);
      const beyond = await srv.req('GET', `${V}/content/nurture-sequences?offset=50`, { key: KEYS.viewerW1 });
      expect(beyond.json.data).toMatchObject({ sequences: [], total: 5 });
    });

    it('visibility: latest scan, 81 points per keyword, null ranks kept; no scan → empty', async () => {
      const res = await srv.req('GET', `${V}/gbp/visibility`, { key: KEYS.viewerW1 });
      expect(res.json.data.scanDate).toBe('2025-06-01');
      expect(res.json.data.keywords.map((k: any) => k.keyword)).toEqual(['dentist near me', 'Teeth Whitening', 'emergency dentist']);
      for (const k of res.json.data.keywords) expect(k.gridPoints).toHaveLength(81);
      expect(res.json.data.keywords[2].gridPoints.some((p: any) => p.rank === null)).toBe(true);
      const none = await srv.req('GET', `${V}/gbp/visibility?website_id=${IDS.W2}`, { key: KEYS.viewerAgency });
      expect(none.json.data).toEqual({ keywords: [], scanDate: null });
    });

    it('brand subjects: no base64 or data: anywhere; images without public URL left out', async () => {
      const res = await srv.req('GET', `${V}/brand/brand-subjects`, { key: KEYS.viewerW1 });
      expect(res.text).not.toMatch(/base64|data:/);
      const [molly, lobby] = res.json.data;
      expect(molly.referenceImages).toEqual([{ imageId: 'img1', publicUrl: 'https://cdn.example/molly.png', label: 'front', isPrimary: true }]);
      expect(molly.brandMark).toBeNull();
      expect(molly).not.toHaveProperty('websiteId');
      expect(lobby.brandMark).toEqual({ imageId: 'mark2', publicUrl: 'https://cdn.example/mark.svg' });
    });

    it('CRM agents: active version or null, prompt cut to 200 code points without splitting an emoji', async () => {
      const res = await srv.req('GET', `${V}/integrations/crm/agents`, { key: KEYS.viewerW1 });
      const [reception, recall] = res.json.data.agents;
      const text: string = reception.activePromptVersion.promptText;
      expect(Array.from(text)).toHaveLength(200);
      expect(text).toBe('😀'.repeat(199) + '🦷');
      expect(reception.activePromptVersion).toMatchObject({ versionNumber: 2, isActive: true });
      expect(reception).not.toHaveProperty('promptVersions');
      expect(reception).not.toHaveProperty('websiteId');
      expect(recall.activePromptVersion).toBeNull();
    });
  });
});
