import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../src/api/endpoints.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { IDS, KEYS, request } from '../server/helpers.js';
import type { Res } from '../server/helpers.js';
import { ResponseValidator, type OpenApiDoc } from './openapi-validator.js';

/**
 * Contract test: a broad set of REST requests (success and error cases for every operation)
 * against the real `cr serve`; every response must have a status documented for its
 * operation in GET /api/v1/openapi.json and a body that validates against that response's
 * schema (ajv, draft 2020-12, formats on).
 */

type Op = (typeof endpointList)[number]['operationId'];

interface Case {
  op: Op;
  name: string;
  /** Path under /api/v1, query included. */
  path: string;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  code?: string | null; // null: the body must have no code field
}

const FUTURE = '2025-07-01T09:30:00Z';
const PAST = '2025-06-01T09:30:00Z';
const BIG = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 16) });
const EVIL_HOST = { host: 'evil.example' };
const EVIL_ORIGIN = { origin: 'http://evil.example' };
const ad = { name: 'Summer ad', ad_format: 'carousel', destination_url: 'https://acme.example/summer' };
const listener = { name: 'Dental news', source_type: 'google_news', query_config: { keywords: ['dentist'] } };
const schedule = (id: string) => `/social/posts/${id}/schedule`;

/** Cases every operation gets: 401 in its flavours and the DNS-rebinding 403s. */
function common(op: Op, path: string, body?: unknown): Case[] {
  return [
    { op, name: 'no key', path, body, key: null, status: 401, code: 'INVALID_API_KEY' },
    { op, name: 'malformed key', path, body, key: 'cr_nothex', status: 401, code: 'INVALID_API_KEY' },
    { op, name: 'unknown key', path, body, key: KEYS.unknown, status: 401, code: 'INVALID_API_KEY' },
    { op, name: 'revoked key', path, body, key: KEYS.revoked, status: 401, code: 'INVALID_API_KEY' },
    { op, name: 'Basic scheme', path, body, key: null, headers: { authorization: `Basic ${KEYS.adminW1}` }, status: 401, code: 'INVALID_API_KEY' },
    { op, name: 'foreign Host', path, body, key: KEYS.adminW1, headers: EVIL_HOST, status: 403, code: 'FORBIDDEN' },
    { op, name: 'foreign Origin', path, body, key: KEYS.adminW1, headers: EVIL_ORIGIN, status: 403, code: 'FORBIDDEN' },
  ];
}

const CASES: Case[] = [
  // getFinanceSummary
  { op: 'getFinanceSummary', name: 'viewer', path: '/finance/summary', key: KEYS.viewerW1, status: 200 },
  { op: 'getFinanceSummary', name: 'another user', path: '/finance/summary', key: KEYS.editorW3, status: 200 },
  { op: 'getFinanceSummary', name: 'agency key', path: '/finance/summary', key: KEYS.viewerAgency, status: 200 },
  ...common('getFinanceSummary', '/finance/summary'),

  // createAdCreative
  { op: 'createAdCreative', name: 'editor, minimal', path: '/content/ads/creatives/create', key: KEYS.editorW1, body: ad, status: 200 },
  {
    op: 'createAdCreative',
    name: 'admin, every field',
    path: '/content/ads/creatives/create',
    key: KEYS.adminW1,
    body: { ...ad, campaign_id: 'camp-summer', headline: 'H', description: 'D', image_urls: ['https://cdn.example/a.png'], product_line_id: IDS.U1, platform: 'google', unknown_field: 1 },
    status: 200,
  },
  { op: 'createAdCreative', name: 'agency editor names W2', path: '/content/ads/creatives/create', key: KEYS.editorAgency, body: { ...ad, website_id: IDS.W2 }, status: 200 },
  { op: 'createAdCreative', name: 'empty body', path: '/content/ads/creatives/create', key: KEYS.editorW1, body: {}, status: 400, code: 'BAD_REQUEST' },
  { op: 'createAdCreative', name: 'invalid JSON', path: '/content/ads/creatives/create', key: KEYS.editorW1, rawBody: '{"name": ', status: 400, code: 'BAD_REQUEST' },
  {
    op: 'createAdCreative',
    name: 'bad values',
    path: '/content/ads/creatives/create',
    key: KEYS.editorW1,
    body: { ...ad, destination_url: 'ftp://x', image_urls: ['nope'], platform: 'myspace' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  { op: 'createAdCreative', name: 'agency key without website_id', path: '/content/ads/creatives/create', key: KEYS.editorAgency, body: ad, status: 400, code: 'BAD_REQUEST' },
  { op: 'createAdCreative', name: 'viewer role', path: '/content/ads/creatives/create', key: KEYS.viewerW1, body: ad, status: 403, code: 'FORBIDDEN' },
  { op: 'createAdCreative', name: 'other website', path: '/content/ads/creatives/create', key: KEYS.editorW1, body: { ...ad, website_id: IDS.W3 }, status: 403, code: 'FORBIDDEN' },
  { op: 'createAdCreative', name: 'outside the agency', path: '/content/ads/creatives/create', key: KEYS.editorAgency, body: { ...ad, website_id: IDS.W3 }, status: 403, code: 'FORBIDDEN' },
  { op: 'createAdCreative', name: 'body over 1 MiB', path: '/content/ads/creatives/create', key: KEYS.editorW1, rawBody: BIG, status: 413, code: 'PAYLOAD_TOO_LARGE' },
  {
    op: 'createAdCreative',
    name: 'text/plain body',
    path: '/content/ads/creatives/create',
    key: KEYS.editorW1,
    body: ad,
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  ...common('createAdCreative', '/content/ads/creatives/create', ad),

  // createContentListener
  { op: 'createContentListener', name: 'editor', path: '/content/listeners', key: KEYS.editorW1, body: listener, status: 200 },
  {
    op: 'createContentListener',
    name: 'rss, 7d',
    path: '/content/listeners',
    key: KEYS.editorW1,
    body: { name: 'Feed', source_type: 'rss', query_config: { feed_url: 'https://acme.example/feed.xml' }, poll_interval: '7d' },
    status: 200,
  },
  { op: 'createContentListener', name: 'agency, website in query', path: `/content/listeners?website_id=${IDS.W2}`, key: KEYS.editorAgency, body: listener, status: 200 },
  { op: 'createContentListener', name: 'missing query_config keys', path: '/content/listeners', key: KEYS.editorW1, body: { ...listener, query_config: {} }, status: 400, code: 'BAD_REQUEST' },
  { op: 'createContentListener', name: 'unknown source', path: '/content/listeners', key: KEYS.editorW1, body: { ...listener, source_type: 'fax' }, status: 400, code: 'BAD_REQUEST' },
  { op: 'createContentListener', name: 'invalid JSON', path: '/content/listeners', key: KEYS.editorW1, rawBody: '[1,', status: 400, code: 'BAD_REQUEST' },
  { op: 'createContentListener', name: 'bad website_id', path: '/content/listeners?website_id=nope', key: KEYS.editorW1, body: listener, status: 400, code: 'BAD_REQUEST' },
  { op: 'createContentListener', name: 'viewer role', path: '/content/listeners', key: KEYS.viewerW1, body: listener, status: 403, code: 'FORBIDDEN' },
  { op: 'createContentListener', name: 'other website', path: `/content/listeners?website_id=${IDS.W3}`, key: KEYS.editorW1, body: listener, status: 403, code: 'FORBIDDEN' },
  { op: 'createContentListener', name: 'body over 1 MiB', path: '/content/listeners', key: KEYS.editorW1, rawBody: BIG, status: 413, code: 'PAYLOAD_TOO_LARGE' },
  {
    op: 'createContentListener',
    name: 'form body',
    path: '/content/listeners',
    key: KEYS.editorW1,
    rawBody: 'name=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    op: 'createContentListener',
    name: 'query_config over 32 keys',
    path: '/content/listeners',
    key: KEYS.editorW1,
    body: { ...listener, query_config: { keywords: ['a'], ...Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i])) } },
    status: 400,
    code: 'BAD_REQUEST',
  },
  ...common('createContentListener', '/content/listeners', listener),

  // scheduleSocialPost
  { op: 'scheduleSocialPost', name: 'draft', path: schedule(IDS.postDraft), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 200 },
  { op: 'scheduleSocialPost', name: 'reschedule', path: schedule(IDS.postScheduled), key: KEYS.editorW1, body: { scheduled_at: '2025-08-01T10:00:00+02:00' }, status: 200 },
  { op: 'scheduleSocialPost', name: 'agency, draft on W2', path: schedule(IDS.postDraftW2), key: KEYS.editorAgency, body: { scheduled_at: FUTURE }, status: 200 },
  { op: 'scheduleSocialPost', name: 'in the past', path: schedule(IDS.postScheduled), key: KEYS.editorW1, body: { scheduled_at: PAST }, status: 400, code: 'BAD_REQUEST' },
  { op: 'scheduleSocialPost', name: 'no offset', path: schedule(IDS.postScheduled), key: KEYS.editorW1, body: { scheduled_at: '2025-07-01T09:30:00' }, status: 400, code: 'BAD_REQUEST' },
  { op: 'scheduleSocialPost', name: 'bad id', path: schedule('not-a-uuid'), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 400, code: 'BAD_REQUEST' },
  { op: 'scheduleSocialPost', name: 'no body', path: schedule(IDS.postScheduled), key: KEYS.editorW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'scheduleSocialPost', name: 'invalid JSON', path: schedule(IDS.postScheduled), key: KEYS.editorW1, rawBody: 'scheduled_at=tomorrow', status: 400, code: 'BAD_REQUEST' },
  { op: 'scheduleSocialPost', name: 'viewer role', path: schedule(IDS.postScheduled), key: KEYS.viewerW1, body: { scheduled_at: FUTURE }, status: 403, code: 'FORBIDDEN' },
  { op: 'scheduleSocialPost', name: 'unknown post', path: schedule(IDS.unknownPost), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 404, code: null },
  { op: 'scheduleSocialPost', name: 'post outside scope', path: schedule(IDS.postDraftW3), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 404, code: null },
  { op: 'scheduleSocialPost', name: 'published', path: schedule(IDS.postPublished), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 409, code: 'INVALID_STATE' },
  { op: 'scheduleSocialPost', name: 'failed', path: schedule(IDS.postFailed), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 409, code: 'INVALID_STATE' },
  { op: 'scheduleSocialPost', name: 'publishing', path: schedule(IDS.postPublishing), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 409, code: 'INVALID_STATE' },
  { op: 'scheduleSocialPost', name: 'body over 1 MiB', path: schedule(IDS.postScheduled), key: KEYS.editorW1, rawBody: BIG, status: 413, code: 'PAYLOAD_TOO_LARGE' },
  {
    op: 'scheduleSocialPost',
    name: 'text/plain body',
    path: schedule(IDS.postScheduled),
    key: KEYS.editorW1,
    body: { scheduled_at: FUTURE },
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  ...common('scheduleSocialPost', schedule(IDS.postScheduled), { scheduled_at: FUTURE }),

  // listLearnings
  { op: 'listLearnings', name: 'defaults', path: '/intelligence/learnings', key: KEYS.viewerW1, status: 200 },
  { op: 'listLearnings', name: 'filtered', path: '/intelligence/learnings?dimension_type=hook&limit=1', key: KEYS.viewerW1, status: 200 },
  { op: 'listLearnings', name: 'agency names W1', path: `/intelligence/learnings?website_id=${IDS.W1}`, key: KEYS.viewerAgency, status: 200 },
  { op: 'listLearnings', name: 'limit 0', path: '/intelligence/learnings?limit=0', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listLearnings', name: 'limit 201', path: '/intelligence/learnings?limit=201', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listLearnings', name: 'unknown dimension', path: '/intelligence/learnings?dimension_type=vibe', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listLearnings', name: 'agency without website_id', path: '/intelligence/learnings', key: KEYS.viewerAgency, status: 400, code: 'BAD_REQUEST' },
  { op: 'listLearnings', name: 'other website', path: `/intelligence/learnings?website_id=${IDS.W3}`, key: KEYS.viewerW1, status: 403, code: 'FORBIDDEN' },
  { op: 'listLearnings', name: 'outside the agency', path: `/intelligence/learnings?website_id=${IDS.W3}`, key: KEYS.viewerAgency, status: 403, code: 'FORBIDDEN' },
  ...common('listLearnings', '/intelligence/learnings'),

  // listNurtureSequences
  { op: 'listNurtureSequences', name: 'defaults', path: '/content/nurture-sequences', key: KEYS.viewerW1, status: 200 },
  { op: 'listNurtureSequences', name: 'paged, filtered', path: '/content/nurture-sequences?limit=1&offset=1&status=active', key: KEYS.viewerW1, status: 200 },
  { op: 'listNurtureSequences', name: 'offset past the end', path: '/content/nurture-sequences?offset=500', key: KEYS.viewerW1, status: 200 },
  { op: 'listNurtureSequences', name: 'limit 201', path: '/content/nurture-sequences?limit=201', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listNurtureSequences', name: 'negative offset', path: '/content/nurture-sequences?offset=-1', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listNurtureSequences', name: 'non-numeric limit', path: '/content/nurture-sequences?limit=ten', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listNurtureSequences', name: 'unknown status', path: '/content/nurture-sequences?status=live', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listNurtureSequences', name: 'other website', path: `/content/nurture-sequences?website_id=${IDS.W2}`, key: KEYS.viewerW1, status: 403, code: 'FORBIDDEN' },
  ...common('listNurtureSequences', '/content/nurture-sequences'),

  // getGbpVisibility
  { op: 'getGbpVisibility', name: 'latest scan', path: '/gbp/visibility', key: KEYS.viewerW1, status: 200 },
  { op: 'getGbpVisibility', name: 'one keyword', path: '/gbp/visibility?keyword=EMERGENCY%20DENTIST', key: KEYS.viewerW1, status: 200 },
  { op: 'getGbpVisibility', name: 'no scan', path: `/gbp/visibility?website_id=${IDS.W2}`, key: KEYS.viewerAgency, status: 200 },
  { op: 'getGbpVisibility', name: 'bad website_id', path: '/gbp/visibility?website_id=nope', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'getGbpVisibility', name: 'agency without website_id', path: '/gbp/visibility', key: KEYS.viewerAgency, status: 400, code: 'BAD_REQUEST' },
  { op: 'getGbpVisibility', name: 'other website', path: `/gbp/visibility?website_id=${IDS.W3}`, key: KEYS.viewerW1, status: 403, code: 'FORBIDDEN' },
  ...common('getGbpVisibility', '/gbp/visibility'),

  // listBrandSubjects
  { op: 'listBrandSubjects', name: 'single website', path: '/brand/brand-subjects', key: KEYS.viewerW1, status: 200 },
  { op: 'listBrandSubjects', name: 'agency, everything', path: '/brand/brand-subjects', key: KEYS.viewerAgency, status: 200 },
  { op: 'listBrandSubjects', name: 'agency, filtered', path: `/brand/brand-subjects?website_id=${IDS.W2}`, key: KEYS.viewerAgency, status: 200 },
  { op: 'listBrandSubjects', name: 'bad website_id', path: '/brand/brand-subjects?website_id=nope', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listBrandSubjects', name: 'other website', path: `/brand/brand-subjects?website_id=${IDS.W3}`, key: KEYS.viewerAgency, status: 403, code: 'FORBIDDEN' },
  ...common('listBrandSubjects', '/brand/brand-subjects'),

  // listCrmAgents
  { op: 'listCrmAgents', name: 'single website', path: '/integrations/crm/agents', key: KEYS.viewerW1, status: 200 },
  { op: 'listCrmAgents', name: 'agency, everything', path: '/integrations/crm/agents', key: KEYS.viewerAgency, status: 200 },
  { op: 'listCrmAgents', name: 'bad website_id', path: '/integrations/crm/agents?website_id=nope', key: KEYS.viewerW1, status: 400, code: 'BAD_REQUEST' },
  { op: 'listCrmAgents', name: 'other website', path: `/integrations/crm/agents?website_id=${IDS.W3}`, key: KEYS.viewerW1, status: 403, code: 'FORBIDDEN' },
  ...common('listCrmAgents', '/integrations/crm/agents'),
];

const methodOf = (op: Op) => endpointList.find((e) => e.operationId === op)!.method;

async function send(srv: ServeProcess, c: Case): Promise<Res> {
  return request(srv.origin, methodOf(c.op), `/api/v1${c.path}`, {
    key: c.key === undefined ? KEYS.adminW1 : c.key,
    body: c.body,
    rawBody: c.rawBody,
    headers: c.headers,
  });
}

let validator: ResponseValidator;
/** Statuses seen per operation, for the coverage check. */
const seen = new Map<string, Set<number>>();

/**
 * The contract: the status is documented for the operation, the body is JSON and validates
 * against the documented schema, the documented headers are present.
 */
function checkContract(c: Pick<Case, 'op' | 'name'>, res: Res): void {
  const label = `${c.op} [${c.name}]`;
  expect(res.headers['content-type'], label).toMatch(/^application\/json/);
  expect(res.json, `${label}: body is not JSON: ${res.text.slice(0, 200)}`).toBeDefined();
  validator.assertValid(c.op, res.status, res.json, label); // throws when the status is undocumented
  const documented = validator.operations.get(c.op)!.op.responses[String(res.status)]!;
  for (const h of Object.keys(documented.headers ?? {})) {
    const v = res.headers[h.toLowerCase()];
    expect(v, `${label}: documented header ${h}`).toBeDefined();
    expect(String(v), `${label}: ${h}`).toMatch(/^\d+$/);
  }
  if (!seen.has(c.op)) seen.set(c.op, new Set());
  seen.get(c.op)!.add(res.status);
}

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

afterAll(() => cleanupTempDirs());

describe('REST responses match the OpenAPI document', () => {
  let srv: ServeProcess;

  beforeAll(async () => {
    srv = await spawnServe([], { fixture: true });
    const res = await fetch(`${srv.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
    validator = new ResponseValidator((await res.json()) as OpenApiDoc);
  }, 30_000);

  afterAll(async () => {
    await srv?.stop();
  });

  // Sequential on purpose: the writes change the store the later cases read.
  it.each(CASES.map((c) => [`${c.op} [${c.name}] → ${c.status}`, c] as const))('%s', async (_label, c) => {
    const res = await send(srv, c);
    expect(res.status, `${c.op} [${c.name}]: ${res.text.slice(0, 300)}`).toBe(c.status);
    checkContract(c, res);
    if (c.status >= 400) {
      expect(res.json.success).toBe(false);
      if (c.code === null) expect(res.json).not.toHaveProperty('code');
      else expect(res.json.code).toBe(c.code);
      if (c.code === 'BAD_REQUEST' && res.json.error === 'Validation error') expect(res.json.details.length).toBeGreaterThan(0);
    } else {
      expect(res.json.success).toBe(true);
    }
  });
});

describe('429 responses match the OpenAPI document (`cr serve --rate-limit 1`)', () => {
  let srv: ServeProcess;
  afterAll(async () => {
    await srv?.stop();
  });

  it('every operation answers 429 with the documented body and headers once the budget is spent', async () => {
    srv = await spawnServe(['--rate-limit', '1'], { fixture: true });
    const first = await request(srv.origin, 'GET', '/api/v1/finance/summary', { key: KEYS.adminW1 });
    expect(first.status).toBe(200);
    checkContract({ op: 'getFinanceSummary', name: 'first' }, first);
    for (const ep of endpointList) {
      const path = ep.path.replace('{id}', IDS.postDraft);
      const res = await request(srv.origin, ep.method, `/api/v1${path}`, { key: KEYS.adminW1, body: ep.method === 'POST' ? {} : undefined });
      expect(res.status, ep.operationId).toBe(429);
      expect(res.json).toEqual({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' });
      expect(res.headers['retry-after']).toBe('3600');
      checkContract({ op: ep.operationId as Op, name: 'rate limited' }, res);
    }
  }, 30_000);
});

describe('507 responses match the OpenAPI document (`cr serve --max-store-mb 1`)', () => {
  let srv: ServeProcess;
  afterAll(async () => {
    await srv?.stop();
  });

  it('every write answers 507 with the documented body once the store is at its cap', async () => {
    srv = await spawnServe(['--max-store-mb', '1'], { fixture: true });
    // Each write is repeated until the store refuses it: every success grows the store, so
    // each loop ends (bounded anyway), and the smaller writes fill what the larger left.
    const filler = { ...listener, query_config: { keywords: ['k'], blob: 'f'.repeat(7000) } };
    const writes: Case[] = [
      { op: 'createContentListener', name: 'store full', path: '/content/listeners', key: KEYS.editorW1, body: filler, status: 507 },
      { op: 'createAdCreative', name: 'store full', path: '/content/ads/creatives/create', key: KEYS.editorW1, body: ad, status: 507 },
      { op: 'createContentListener', name: 'store full, small', path: '/content/listeners', key: KEYS.editorW1, body: listener, status: 507 },
      { op: 'scheduleSocialPost', name: 'store full', path: schedule(IDS.postScheduled), key: KEYS.editorW1, body: { scheduled_at: FUTURE }, status: 507 },
    ];
    for (const c of writes) {
      let res = await send(srv, c);
      for (let i = 0; i < 3000 && res.status === 200; i++) res = await send(srv, c);
      expect(res.status, c.op).toBe(507);
      expect(res.json).toEqual({ success: false, error: 'Store is full', code: 'STORE_FULL' });
      checkContract(c, res);
    }
  }, 60_000);
});

// Runs after the two blocks above (vitest keeps the file's order): it reads what they saw.
describe('coverage and strictness of the contract check', () => {
  it('every documented status of every operation was exercised (except 500 and 503)', () => {
    for (const [op, { op: doc }] of validator.operations) {
      const documented = Object.keys(doc.responses)
        .map(Number)
        .filter((s) => s !== 500 && s !== 503);
      expect([...(seen.get(op) ?? [])].sort(), op).toEqual(expect.arrayContaining(documented));
      // and nothing undocumented slipped through
      for (const s of seen.get(op) ?? []) expect(Object.keys(doc.responses), op).toContain(String(s));
    }
    expect(seen.size).toBe(endpointList.length);
  });

  it('an undocumented status fails the check', () => {
    expect(() => validator.assertValid('getFinanceSummary', 400, { success: false, error: 'Validation error', code: 'BAD_REQUEST' })).toThrow(/not documented/);
    expect(() => validator.assertValid('listLearnings', 404, { success: false, error: 'Not found' })).toThrow(/not documented/);
    expect(() => validator.assertValid('listLearnings', 409, { success: false, error: 'x', code: 'INVALID_STATE' })).toThrow(/not documented/);
    expect(() => validator.assertValid('nonexistentOperation', 200, {})).toThrow(/not in the OpenAPI document/);
  });

  it('deliberately wrong bodies do not validate', () => {
    // Error envelope: `error` is required, `success` must be false, details items need path and message.
    expect(validator.errors('listLearnings', 401, { success: false, error: 'Invalid API key', code: 'INVALID_API_KEY' })).toEqual([]);
    expect(validator.errors('listLearnings', 401, { success: false, code: 'INVALID_API_KEY' })).not.toEqual([]);
    expect(validator.errors('listLearnings', 401, { success: true, error: 'x' })).not.toEqual([]);
    expect(validator.errors('listLearnings', 400, { success: false, error: 'Validation error', details: [{ path: 'limit' }] })).not.toEqual([]);
    expect(validator.errors('listLearnings', 400, { success: false, error: 'Validation error', code: 42 })).not.toEqual([]);
    // Success envelope: data is required, success must be true, data has its required fields and types.
    expect(validator.errors('listLearnings', 200, { success: true })).not.toEqual([]);
    expect(validator.errors('listLearnings', 200, { success: false, data: { learnings: [], total: 0 } })).not.toEqual([]);
    expect(validator.errors('listLearnings', 200, { success: true, data: { learnings: [], total: 0 } })).toEqual([]);
    expect(validator.errors('listLearnings', 200, { success: true, data: { learnings: [] } })).not.toEqual([]);
    expect(validator.errors('listLearnings', 200, { success: true, data: { learnings: [], total: 1.5 } })).not.toEqual([]);
    expect(validator.errors('getFinanceSummary', 200, { success: true, data: { summaries: [{}], invoiceAlerts: [] } })).not.toEqual([]);
    expect(validator.errors('getGbpVisibility', 200, { success: true, data: { keywords: [{ keyword: 'x', gridPoints: [{ lat: 'north', lng: 1, rank: 1 }] }], scanDate: null } })).not.toEqual([]);
    expect(validator.errors('listCrmAgents', 200, { success: true, data: [] })).not.toEqual([]);
  });

  it('real 200 bodies stop validating when a required field is removed', async () => {
    // Take real bodies the server produced (re-fetched over a fresh server) and break them.
    const srv = await spawnServe([], { fixture: true });
    try {
      for (const ep of endpointList.filter((e) => e.method === 'GET')) {
        const res = await request(srv.origin, 'GET', `/api/v1${ep.path}`, { key: KEYS.adminW1 });
        expect(res.status, ep.operationId).toBe(200);
        expect(validator.errors(ep.operationId, 200, res.json), ep.operationId).toEqual([]);
        const broken = structuredClone(res.json);
        // A list's first item, else the data object itself, loses its first field.
        const data = (Array.isArray(broken.data) ? broken.data[0] : broken.data) as Record<string, unknown>;
        expect(data, ep.operationId).toBeDefined();
        const firstKey = Object.keys(data)[0]!;
        delete data[firstKey];
        expect(validator.errors(ep.operationId, 200, broken), `${ep.operationId} without ${firstKey}`).not.toEqual([]);
      }
    } finally {
      await srv.stop();
    }
  }, 30_000);
});
