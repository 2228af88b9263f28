import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type CallInput } from '../../src/http/client.js';
import { ApiError } from '../../src/errors.js';
import { endpointList, type OperationId } from '../../src/api/endpoints.js';
import { routes } from '../../src/api/routes.js';
import type { RequestInput } from '../../src/api/io-types.js';
import { endpointUrl } from '../../src/http/url.js';
import { IDS, KEYS, startFixtureServer, type TestServer } from '../server/helpers.js';

/**
 * The endpoint table's per-operation facts hold on the real local server (`127.0.0.1:0`,
 * fixture store, fixed clock), called through the typed client: where website_id goes
 * (`websiteParam`), what `idempotent` promises, and the CRM path segment. The error statuses
 * are checked against live answers by contract.test.ts.
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

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startFixtureServer();
  client = new ApiClient({ baseUrl: `${server.url}/api/v1`, key: KEYS.editorW1, userAgent: 'cr-test', timeoutMs: 5000 });
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** Calls an operation with its valid request, website_id where the table's websiteParam puts it. */
async function send(op: OperationId, websiteId?: string): Promise<{ status: number; data?: unknown; error?: string }> {
  const ep = routes[op];
  const input = VALID[op] as CallInput & { body?: Record<string, unknown> };
  const site = (where: string) => (websiteId && ep.websiteParam === where ? { website_id: websiteId } : {});
  const request = { ...input, query: { ...input.query, ...site('query') }, ...(ep.method === 'GET' ? {} : { body: { ...input.body, ...site('body') } }) };
  // The loose CallInput on purpose: the request is assembled per the table's data.
  const call = client.call.bind(client) as (route: typeof ep, input: CallInput) => ReturnType<ApiClient['call']>;
  try {
    return { status: 200, data: (await call(ep, request)).raw };
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, error: (e.body as { error?: string } | undefined)?.error };
    throw e;
  }
}

describe('the endpoint table matches the server', () => {
  it('every website-scoped operation reads website_id where websiteParam puts it (W3 is outside the key → 403)', async () => {
    const scoped = endpointList.filter((ep) => ep.websiteScope !== 'owner');
    // Everything but finance, which belongs to the user.
    expect(scoped.map((ep) => ep.operationId)).toEqual(endpointList.map((ep) => ep.operationId).filter((op) => op !== 'getFinanceSummary'));
    for (const ep of scoped) {
      expect(ep.websiteParam, ep.operationId).not.toBe('none');
      expect((await send(ep.operationId)).status, `${ep.operationId} without website_id`).toBe(200);
      const res = await send(ep.operationId, IDS.W3);
      expect({ op: ep.operationId, ...res }).toEqual({ op: ep.operationId, status: 403, error: 'Website not in key scope' });
    }
  });

  it('finance belongs to the user: website_id in the query (docs/cli-contract.md sends it everywhere) is accepted and ignored', async () => {
    expect(routes.getFinanceSummary.websiteParam).toBe('query');
    const plain = await send('getFinanceSummary');
    expect(plain.status).toBe(200);
    expect(await send('getFinanceSummary', IDS.W3)).toEqual(plain);
  });

  it('an operation marked idempotent answers a repeat the same; the creations are not idempotent', async () => {
    for (const ep of endpointList) {
      const first = await send(ep.operationId);
      const second = await send(ep.operationId);
      expect(first.status, ep.operationId).toBe(200);
      if (ep.idempotent) expect(second, ep.operationId).toEqual(first);
      else expect((second.data as { id: string }).id, ep.operationId).not.toBe((first.data as { id: string }).id);
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
