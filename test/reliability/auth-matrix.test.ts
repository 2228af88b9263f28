import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, KEYS, OPS, V, mcpCall, request, startFixtureServer } from './support.js';
import type { Op } from './support.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Item 8: every endpoint and every MCP tool × {no key, malformed, unknown, revoked, other
 * website, too-low role}: never a success, always the documented status, message and code
 * (docs/api-decisions.md §1–§2), and no write reaches the store.
 */
let srv: TestServer;
beforeAll(async () => {
  srv = await startFixtureServer({ rateLimit: 1_000_000 });
});
afterAll(async () => {
  await srv?.stop();
});

const INVALID = { success: false, error: 'Invalid API key', code: 'INVALID_API_KEY' };
const SCOPE = { success: false, error: 'Website not in key scope', code: 'FORBIDDEN' };
const ROLE = { success: false, error: 'Insufficient role: editor required', code: 'FORBIDDEN' };
const NOT_FOUND = { success: false, error: 'Not found' };

interface Case {
  name: string;
  /** The Authorization header (undefined: none). */
  authorization?: string;
  /** Rewrites the op's request for this case (other website). */
  shape?: (op: Op) => { path: string; body?: Record<string, unknown>; args: Record<string, unknown> } | null;
  status: number;
  envelope: Record<string, unknown>;
  only?: (op: Op) => boolean;
}

const bearer = (k: string) => `Bearer ${k}`;
const withWebsite = (op: Op, websiteId: string) => ({
  path: op.method === 'GET' ? `${op.path}?website_id=${websiteId}` : op.path,
  body: op.body && { ...op.body, website_id: websiteId },
  args: { ...op.args, website_id: websiteId },
});

/** Finance is owner-scoped (decisions §2): it has no website parameter, so "other website" does not apply. */
const otherWebsite = (websiteId: string) => (op: Op) => {
  if (op.ownerScoped) return null;
  // A post of a website outside the scope is simply not found (404 without a code).
  if (op.operationId === 'scheduleSocialPost') return { path: `/social/posts/${IDS.postDraftW3}/schedule`, body: op.body, args: { ...op.args, id: IDS.postDraftW3 } };
  return withWebsite(op, websiteId);
};

const CASES: Case[] = [
  { name: 'no key', status: 401, envelope: INVALID },
  { name: 'malformed: uppercase hex', authorization: bearer('cr_' + 'A'.repeat(40)), status: 401, envelope: INVALID },
  { name: 'malformed: too short', authorization: bearer('cr_abc'), status: 401, envelope: INVALID },
  { name: 'malformed: one hex digit too many', authorization: bearer(KEYS.adminW1 + 'a'), status: 401, envelope: INVALID },
  { name: 'malformed: Basic scheme', authorization: `Basic ${KEYS.adminW1}`, status: 401, envelope: INVALID },
  { name: 'malformed: no scheme', authorization: KEYS.adminW1, status: 401, envelope: INVALID },
  { name: 'malformed: two tokens', authorization: `Bearer ${KEYS.adminW1} ${KEYS.adminW1}`, status: 401, envelope: INVALID },
  { name: 'malformed: empty Bearer', authorization: 'Bearer ', status: 401, envelope: INVALID },
  { name: 'unknown key', authorization: bearer(KEYS.unknown), status: 401, envelope: INVALID },
  { name: 'revoked key', authorization: bearer(KEYS.revoked), status: 401, envelope: INVALID },
  {
    name: 'other website (single-website admin key, website of another agency)',
    authorization: bearer(KEYS.adminW1),
    shape: otherWebsite(IDS.W3),
    status: 403,
    envelope: SCOPE,
  },
  {
    name: 'other website (single-website admin key, sibling website of the same agency)',
    authorization: bearer(KEYS.adminW1),
    shape: (op) =>
      op.operationId === 'scheduleSocialPost' ? { path: `/social/posts/${IDS.postDraftW2}/schedule`, body: op.body, args: { ...op.args, id: IDS.postDraftW2 } } : otherWebsite(IDS.W2)(op),
    status: 403,
    envelope: SCOPE,
  },
  { name: 'other website (agency editor key, website of another agency)', authorization: bearer(KEYS.editorAgency), shape: otherWebsite(IDS.W3), status: 403, envelope: SCOPE },
  { name: 'too-low role (viewer, single website)', authorization: bearer(KEYS.viewerW1), status: 403, envelope: ROLE, only: (op) => op.write },
  {
    name: 'too-low role (viewer, agency)',
    authorization: bearer(KEYS.viewerAgency),
    shape: (op) => withWebsite(op, IDS.W1),
    status: 403,
    envelope: ROLE,
    only: (op) => op.write,
  },
];

/** The expected outcome of an op under a case (schedule's out-of-scope post is a 404 without code). */
function expected(c: Case, op: Op): { status: number; envelope: Record<string, unknown> } {
  if (c.envelope === SCOPE && op.operationId === 'scheduleSocialPost') return { status: 404, envelope: NOT_FOUND };
  return { status: c.status, envelope: c.envelope };
}

const snapshot = () => JSON.stringify([srv.store.list('ad_creatives'), srv.store.list('content_listeners'), srv.store.list('social_posts')]);

describe('auth matrix', () => {
  it('REST: every endpoint × every refused caller gets its documented status, message and code', async () => {
    const before = snapshot();
    let checked = 0;
    for (const op of OPS) {
      for (const c of CASES) {
        if (c.only && !c.only(op)) continue;
        const shaped = c.shape ? c.shape(op) : { path: op.path, body: op.body, args: op.args };
        if (!shaped) continue;
        const res = await request(srv.url, op.method, V + shaped.path, {
          ...(shaped.body ? { body: shaped.body } : {}),
          headers: c.authorization === undefined ? {} : { authorization: c.authorization },
        });
        const want = expected(c, op);
        const label = `${op.operationId} / ${c.name}: ${res.status} ${res.text}`;
        expect(res.status, label).toBe(want.status);
        expect(res.json, label).toStrictEqual(want.envelope);
        checked++;
      }
    }
    expect(snapshot(), 'no refused write reached the store').toBe(before);
    expect(checked).toBeGreaterThanOrEqual(9 * 10 + 8 * 3 + 3 * 2);
  });

  it('MCP: every tool × every refused caller: 401 envelope before the transport, or an isError result carrying the envelope', async () => {
    const before = snapshot();
    for (const op of OPS) {
      for (const c of CASES) {
        if (c.only && !c.only(op)) continue;
        const shaped = c.shape ? c.shape(op) : { path: op.path, body: op.body, args: op.args };
        if (!shaped) continue;
        const res = await mcpCall(srv.url, c.authorization, op.operationId, shaped.args);
        const want = expected(c, op);
        const label = `${op.operationId} / ${c.name}: ${res.status} ${res.text}`;
        if (want.status === 401) {
          // Refused at the HTTP layer: the MCP transport never runs.
          expect(res.status, label).toBe(401);
          expect(res.json, label).toStrictEqual(want.envelope);
        } else {
          // An API error is a tool result with isError: true carrying the envelope (decisions §8).
          expect(res.status, label).toBe(200);
          expect(res.json?.jsonrpc, label).toBe('2.0');
          expect(res.json?.result?.isError, label).toBe(true);
          expect(res.json?.result?.structuredContent, label).toBeUndefined();
          expect(JSON.parse(res.json.result.content[0].text), label).toStrictEqual(want.envelope);
        }
      }
    }
    expect(snapshot(), 'no refused tool call reached the store').toBe(before);
  });

  it('control: the same requests with an allowed caller succeed (so the refusals above are about the caller)', async () => {
    for (const op of OPS) {
      const key = op.write ? KEYS.editorW1 : KEYS.viewerW1;
      const res = await request(srv.url, op.method, V + op.path, { key, ...(op.body ? { body: op.body } : {}) });
      expect(res.status, `${op.operationId}: ${res.text}`).toBe(200);
      expect(res.json.success).toBe(true);
      const tool = await mcpCall(srv.url, bearer(key), op.operationId, op.args);
      expect(tool.json?.result?.isError, `${op.operationId}: ${tool.text}`).not.toBe(true);
      expect(tool.json.result.structuredContent).toHaveProperty('data');
    }
    // Agency keys reach both agency websites.
    const agency = await request(srv.url, 'GET', `${V}/intelligence/learnings?website_id=${IDS.W2}`, { key: KEYS.viewerAgency });
    expect(agency.status).toBe(200);
  });
});
