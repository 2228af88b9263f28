import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createApp } from '../../src/server/app.js';
import { Store } from '../../src/server/store.js';
import { fixedClock } from '../../src/server/clock.js';
import { endpointList, routes, type OperationId, type RequestInput } from '../../src/api/endpoints.js';
import { endpointUrl } from '../../src/http/url.js';
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';

/**
 * The endpoint table's per-operation facts hold on the real local server (in-process): where
 * website_id goes (`websiteParam`), what `idempotent` promises, and the CRM path segment.
 * The error statuses are checked against live answers by contract.test.ts.
 */

const BASE = 'http://127.0.0.1/api/v1';
const FUTURE = '2025-07-01T09:30:00Z';

/** A valid request per operation, typed by the table (a wrong one would not compile). */
const VALID: { [Op in OperationId]: RequestInput<Op> } = {
  getFinanceSummary: {},
  createAdCreative: { body: { ad_format: 'video', name: 'n', destination_url: 'https://x.example/' } },
  createContentListener: { body: { name: 'n', source_type: 'rss', query_config: { feed_url: 'https://x.example/feed' } } },
  scheduleSocialPost: { params: { id: IDS.postDraft }, body: { scheduled_at: FUTURE } },
  listLearnings: {},
  listNurtureSequences: {},
  getGbpVisibility: {},
  listBrandSubjects: {},
  listCrmAgents: {},
};

const load = async () => Store.memory(JSON.parse(await readFile(FIXTURE, 'utf8')));

/** Sends an operation's valid request with website_id where the table's websiteParam puts it. */
async function send(app: ReturnType<typeof createApp>, op: OperationId, websiteId?: string) {
  const ep = routes[op];
  const input = VALID[op] as { params?: Record<string, string>; query?: Record<string, unknown>; body?: Record<string, unknown> };
  const query = { ...input.query, ...(websiteId && ep.websiteParam === 'query' ? { website_id: websiteId } : {}) };
  const body = ep.method === 'GET' ? undefined : { ...input.body, ...(websiteId && ep.websiteParam === 'body' ? { website_id: websiteId } : {}) };
  const res = await app.request(endpointUrl(BASE, ep, { params: input.params, query }), {
    method: ep.method,
    headers: { authorization: `Bearer ${KEYS.editorW1}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body && JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the endpoint table matches the server', () => {
  it('every website-scoped operation reads website_id where websiteParam puts it (W3 is outside the key → 403)', async () => {
    const app = createApp({ store: await load(), clock: fixedClock(NOW) });
    const scoped = endpointList.filter((ep) => ep.websiteScope !== 'owner');
    expect(scoped.length).toBe(8);
    for (const ep of scoped) {
      expect(ep.websiteParam, ep.operationId).not.toBe('none');
      expect((await send(app, ep.operationId)).status, `${ep.operationId} without website_id`).toBe(200);
      const res = await send(app, ep.operationId, IDS.W3);
      expect({ op: ep.operationId, status: res.status, error: res.body.error }).toEqual({ op: ep.operationId, status: 403, error: 'Website not in key scope' });
    }
  });

  it('finance belongs to the user: website_id in the query (cli.md sends it everywhere) is accepted and ignored', async () => {
    const app = createApp({ store: await load(), clock: fixedClock(NOW) });
    expect(routes.getFinanceSummary.websiteParam).toBe('query');
    const plain = await send(app, 'getFinanceSummary');
    const withSite = await send(app, 'getFinanceSummary', IDS.W3);
    expect(withSite).toEqual(plain);
    expect(plain.status).toBe(200);
  });

  it('an operation marked idempotent answers a repeat the same; the creations are not idempotent', async () => {
    const app = createApp({ store: await load(), clock: fixedClock(NOW) });
    for (const ep of endpointList) {
      const first = await send(app, ep.operationId);
      const second = await send(app, ep.operationId);
      expect(first.status, ep.operationId).toBe(200);
      if (ep.idempotent) expect(second, ep.operationId).toEqual(first);
      else expect((second.body.data as { id: string }).id, ep.operationId).not.toBe((first.body.data as { id: string }).id);
    }
    expect(endpointList.filter((ep) => !ep.idempotent).map((ep) => ep.operationId)).toEqual(['createAdCreative', 'createContentListener']);
  });
});

describe('renamable path segments', () => {
  it("the profile's CRM name replaces the table's crm segment, whole segments only", () => {
    expect(endpointUrl(BASE, routes.listCrmAgents)).toBe(`${BASE}/integrations/crm/agents`);
    expect(endpointUrl(BASE, routes.listCrmAgents, {}, 'crm')).toBe(`${BASE}/integrations/crm/agents`);
    expect(endpointUrl(BASE, routes.listCrmAgents, {}, 'go high/level')).toBe(`${BASE}/integrations/go%20high%2Flevel/agents`);
    const lookalike = { ...routes.listCrmAgents, path: '/crm-tools/crm/crm' };
    expect(endpointUrl(BASE, lookalike, {}, 'hub')).toBe(`${BASE}/crm-tools/hub/hub`);
    // Operations without pathSegments keep their path whatever the profile says.
    expect(endpointUrl(BASE, { ...routes.listBrandSubjects, path: '/crm/agents' }, {}, 'hub')).toBe(`${BASE}/crm/agents`);
  });
});
