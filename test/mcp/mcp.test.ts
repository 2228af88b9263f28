import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { endpointList } from '../../src/api/endpoints.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { IDS, KEYS, request } from '../server/helpers.js';

/**
 * MCP at /api/v1/mcp (docs/api-decisions.md §8) exercised with the official SDK client against the
 * real, built `cr serve` process over a copy of the server fixture store.
 */

/** One tool per operation of the endpoint table, named by it. */
const OPERATIONS = endpointList.map((ep) => ep.operationId);

const FUTURE = '2025-07-01T09:30:00.000Z'; // after the fixture's NOW (2025-06-15)

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { data: unknown } };

async function connect(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'cr-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 })) as ToolResult;
}

/** The envelope an error tool result carries in its text content. */
const envelopeOf = (r: ToolResult) => JSON.parse(r.content[0]!.text) as { success: boolean; error: string; code?: string; details?: { path: string; message: string }[] };

async function rest(baseUrl: string, method: 'GET' | 'POST', path: string, key: string, body?: unknown) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as { success: boolean; data?: any; code?: string } };
}

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

afterAll(() => cleanupTempDirs());

describe('MCP over Streamable HTTP against `cr serve`', () => {
  let srv: ServeProcess;
  let editor: Client;
  let viewer: Client;
  let agency: Client;

  beforeAll(async () => {
    srv = await spawnServe([], { fixture: true });
    editor = await connect(srv.baseUrl, KEYS.editorW1);
    viewer = await connect(srv.baseUrl, KEYS.viewerW1);
    agency = await connect(srv.baseUrl, KEYS.viewerAgency);
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled([editor?.close(), viewer?.close(), agency?.close()]);
    await srv?.stop();
  });

  it('listTools returns exactly the operations of the table with object input schemas built from the table', async () => {
    const { tools } = await editor.listTools(undefined, { timeout: 10_000 });
    expect(tools.map((t) => t.name).sort()).toEqual([...OPERATIONS].sort());
    for (const tool of tools) {
      const ep = endpointList.find((e) => e.operationId === tool.name)!;
      expect(ep, tool.name).toBeDefined();
      expect(tool.inputSchema.type).toBe('object');
      const expected = new Set<string>();
      for (const part of [ep.params, ep.query, ep.body]) {
        const shape = (part as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
        for (const k of Object.keys(shape ?? {})) expected.add(k);
      }
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), tool.name).toEqual([...expected].sort());
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.outputSchema?.required).toEqual(['data']);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName.scheduleSocialPost!.inputSchema.properties!).sort()).toEqual(['id', 'scheduled_at']);
    expect(byName.scheduleSocialPost!.inputSchema.required).toEqual(expect.arrayContaining(['id', 'scheduled_at']));
    expect(Object.keys(byName.listNurtureSequences!.inputSchema.properties!).sort()).toEqual(['limit', 'offset', 'status', 'website_id']);
    expect(Object.keys(byName.getFinanceSummary!.inputSchema.properties ?? {})).toEqual([]);
    expect(Object.keys(byName.createAdCreative!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['name', 'ad_format', 'destination_url', 'website_id', 'campaign_id', 'image_urls', 'platform']),
    );
    expect(Object.keys(byName.createContentListener!.inputSchema.properties!)).toEqual(expect.arrayContaining(['name', 'source_type', 'query_config', 'poll_interval', 'website_id']));
    expect(byName.getFinanceSummary!.annotations?.readOnlyHint).toBe(true);
    expect(byName.createAdCreative!.annotations?.readOnlyHint).toBe(false);
  });

  const reads: { tool: string; key: 'editor' | 'agency'; args: Record<string, unknown>; path: string; nonEmpty: (d: any) => unknown }[] = [
    { tool: 'getFinanceSummary', key: 'editor', args: {}, path: '/finance/summary', nonEmpty: (d) => d.summaries.length },
    { tool: 'listLearnings', key: 'editor', args: { limit: 2 }, path: '/intelligence/learnings?limit=2', nonEmpty: (d) => d.learnings.length === 2 && d.total > 2 },
    {
      tool: 'listNurtureSequences',
      key: 'editor',
      args: { limit: 2, offset: 1, status: 'active' },
      path: '/content/nurture-sequences?limit=2&offset=1&status=active',
      nonEmpty: (d) => d.total === 2,
    },
    { tool: 'listNurtureSequences', key: 'agency', args: { website_id: IDS.W2 }, path: `/content/nurture-sequences?website_id=${IDS.W2}`, nonEmpty: (d) => d.total === 1 },
    {
      tool: 'getGbpVisibility',
      key: 'editor',
      args: { keyword: 'TEETH whitening' },
      path: '/gbp/visibility?keyword=TEETH%20whitening',
      nonEmpty: (d) => d.keywords.length === 1 && d.keywords[0].gridPoints.length === 81,
    },
    { tool: 'getGbpVisibility', key: 'agency', args: { website_id: IDS.W1 }, path: `/gbp/visibility?website_id=${IDS.W1}`, nonEmpty: (d) => d.keywords.length > 1 },
    { tool: 'listBrandSubjects', key: 'editor', args: {}, path: '/brand/brand-subjects', nonEmpty: (d) => d.length === 2 },
    { tool: 'listBrandSubjects', key: 'agency', args: {}, path: '/brand/brand-subjects', nonEmpty: (d) => d.length === 3 },
    { tool: 'listCrmAgents', key: 'editor', args: {}, path: '/integrations/crm/agents', nonEmpty: (d) => d.agents.length === 2 },
    { tool: 'listCrmAgents', key: 'agency', args: { website_id: IDS.W2 }, path: `/integrations/crm/agents?website_id=${IDS.W2}`, nonEmpty: (d) => d.agents.length === 1 },
  ];

  it.each(reads)('$tool ($key, $path) returns the same data as REST, in structuredContent.data and in the text', async ({ tool, key, args, path, nonEmpty }) => {
    const client = key === 'editor' ? editor : agency;
    const r = await call(client, tool, args);
    expect(r.isError ?? false).toBe(false);
    const viaRest = await rest(srv.baseUrl, 'GET', path, key === 'editor' ? KEYS.editorW1 : KEYS.viewerAgency);
    expect(viaRest.status).toBe(200);
    expect(r.structuredContent).toEqual({ data: viaRest.json.data });
    expect(r.content).toHaveLength(1);
    expect(r.content[0]!.type).toBe('text');
    expect(JSON.parse(r.content[0]!.text)).toEqual(viaRest.json.data);
    expect(nonEmpty(viaRest.json.data)).toBeTruthy();
  });

  it('createAdCreative: the tool result has the same fields as the REST creation, and REST sees the new record', async () => {
    const args = { name: 'MCP creative', ad_format: 'single_image', destination_url: 'https://acme.example/mcp', campaign_id: 'camp-summer', headline: 'Hi' };
    const viaTool = await call(editor, 'createAdCreative', args);
    expect(viaTool.isError ?? false).toBe(false);
    const t = viaTool.structuredContent!.data as Record<string, unknown>;
    expect(JSON.parse(viaTool.content[0]!.text)).toEqual(t);
    const viaRest = await rest(srv.baseUrl, 'POST', '/content/ads/creatives/create', KEYS.editorW1, args);
    expect(viaRest.status).toBe(200);
    const r = viaRest.json.data as Record<string, unknown>;
    expect(t.id).not.toEqual(r.id);
    const { id: _a, ...tRest } = t;
    const { id: _b, ...rRest } = r;
    expect(tRest).toEqual(rRest);
    expect(t).toMatchObject({ name: 'MCP creative', status: 'draft', source: 'api' });
  });

  it('createContentListener: same fields as REST (website_id from the query for REST, a flat argument for MCP)', async () => {
    const args = { name: 'MCP listener', source_type: 'reddit', query_config: { subreddit: 'dentistry' }, poll_interval: '6h' };
    const viaTool = await call(editor, 'createContentListener', { ...args, website_id: IDS.W1 });
    expect(viaTool.isError ?? false).toBe(false);
    const t = viaTool.structuredContent!.data as Record<string, unknown>;
    expect(JSON.parse(viaTool.content[0]!.text)).toEqual(t);
    const viaRest = await rest(srv.baseUrl, 'POST', `/content/listeners?website_id=${IDS.W1}`, KEYS.editorW1, args);
    expect(viaRest.status).toBe(200);
    const { id: idT, ...tRest } = t;
    const { id: idR, ...rRest } = viaRest.json.data as Record<string, unknown>;
    expect(idT).not.toEqual(idR);
    expect(tRest).toEqual(rRest);
    expect(t).toMatchObject({ name: 'MCP listener', sourceType: 'reddit', enabled: true });
  });

  it('scheduleSocialPost: the tool schedules the draft; rescheduling through REST observes the same post', async () => {
    const viaTool = await call(editor, 'scheduleSocialPost', { id: IDS.postDraft, scheduled_at: FUTURE });
    expect(viaTool.isError ?? false).toBe(false);
    const t = viaTool.structuredContent!.data as Record<string, unknown>;
    expect(t).toMatchObject({ id: IDS.postDraft, status: 'scheduled' });
    expect(Date.parse(t.scheduledAt as string)).toBe(Date.parse(FUTURE));
    expect(JSON.parse(viaTool.content[0]!.text)).toEqual(t);
    // The post is now `scheduled` (REST would answer 409 had the tool not changed it); the
    // same schedule again is a harmless reschedule with the same response.
    const viaRest = await rest(srv.baseUrl, 'POST', `/social/posts/${IDS.postDraft}/schedule`, KEYS.editorW1, { scheduled_at: FUTURE });
    expect(viaRest.status).toBe(200);
    expect(viaRest.json.data).toEqual(t);
  });

  it('a viewer key calling scheduleSocialPost gets isError with FORBIDDEN', async () => {
    const r = await call(viewer, 'scheduleSocialPost', { id: IDS.postScheduled, scheduled_at: FUTURE });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(envelopeOf(r)).toEqual({ success: false, error: 'Insufficient role: editor required', code: 'FORBIDDEN' });
  });

  it('API errors become isError results carrying the envelope (scope 403, 404 without code, 409)', async () => {
    const scope = await call(editor, 'listLearnings', { website_id: IDS.W3 });
    expect(scope.isError).toBe(true);
    expect(envelopeOf(scope)).toEqual({ success: false, error: 'Website not in key scope', code: 'FORBIDDEN' });
    const missing = await call(editor, 'scheduleSocialPost', { id: IDS.unknownPost, scheduled_at: FUTURE });
    expect(missing.isError).toBe(true);
    expect(envelopeOf(missing)).toEqual({ success: false, error: 'Not found' });
    const state = await call(editor, 'scheduleSocialPost', { id: IDS.postPublished, scheduled_at: FUTURE });
    expect(state.isError).toBe(true);
    expect(envelopeOf(state)).toMatchObject({ success: false, code: 'INVALID_STATE' });
  });

  it('invalid arguments give isError with BAD_REQUEST and details naming each path', async () => {
    const r = await call(editor, 'scheduleSocialPost', { id: 'not-a-uuid', scheduled_at: 'tomorrow' });
    expect(r.isError).toBe(true);
    const env = envelopeOf(r);
    expect(env).toMatchObject({ success: false, error: 'Validation error', code: 'BAD_REQUEST' });
    expect(env.details!.map((d) => d.path).sort()).toEqual(['id', 'scheduled_at']);
    for (const d of env.details!) expect(d.message).toEqual(expect.any(String));

    const nurture = await call(editor, 'listNurtureSequences', { limit: 201, offset: -1 });
    expect(nurture.isError).toBe(true);
    expect(envelopeOf(nurture).code).toBe('BAD_REQUEST');
    expect(
      envelopeOf(nurture)
        .details!.map((d) => d.path)
        .sort(),
    ).toEqual(['limit', 'offset']);

    const ad = await call(editor, 'createAdCreative', { ad_format: 'hologram' });
    expect(ad.isError).toBe(true);
    expect(envelopeOf(ad).details!.map((d) => d.path)).toEqual(expect.arrayContaining(['name', 'ad_format', 'destination_url']));

    // An agency key must name the website on single-website endpoints.
    const agencyNoSite = await call(agency, 'listLearnings', {});
    expect(agencyNoSite.isError).toBe(true);
    expect(envelopeOf(agencyNoSite).details!.map((d) => d.path)).toEqual(['website_id']);
  });

  it('without a key, /api/v1/mcp answers 401 with the envelope before the MCP transport runs', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${KEYS.revoked}`, `Bearer ${KEYS.unknown}`]) {
      const res = await fetch(`${srv.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(init),
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      // The envelope, not a JSON-RPC error: the transport never saw the request.
      expect(await res.json()).toEqual({ success: false, error: 'Invalid API key', code: 'INVALID_API_KEY' });
    }
    // ... and the SDK client cannot connect without a key.
    const client = new Client({ name: 'cr-test', version: '0.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`)))).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('a foreign Origin or Host gets the 403 envelope on /api/v1/mcp, even with a valid key', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const forbidden = { success: false, error: 'Forbidden host or origin', code: 'FORBIDDEN' };
    const port = new URL(srv.origin).port;

    const evilOrigin = await request(srv.origin, 'POST', '/api/v1/mcp', { key: KEYS.editorW1, rawBody: init, headers: { ...headers, origin: 'http://evil.example' } });
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.json).toEqual(forbidden);

    const evilHost = await request(srv.origin, 'POST', '/api/v1/mcp', { key: KEYS.editorW1, rawBody: init, headers: { ...headers, host: `evil.example:${port}` } });
    expect(evilHost.status).toBe(403);
    expect(evilHost.json).toEqual(forbidden);

    // Control: the same request from an allowed origin reaches the MCP server.
    const ok = await request(srv.origin, 'POST', '/api/v1/mcp', { key: KEYS.editorW1, rawBody: init, headers: { ...headers, origin: `http://localhost:${port}` } });
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools).toHaveLength(endpointList.length);

    // The SDK client with a foreign Origin header cannot connect either.
    const client = new Client({ name: 'cr-test', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${KEYS.editorW1}`, Origin: 'http://evil.example' } },
    });
    await expect(client.connect(transport)).rejects.toThrow(/403|Forbidden/);
    await client.close().catch(() => undefined);
  });
});

describe('one rate limit across REST and MCP (`cr serve --rate-limit 5`)', () => {
  let srv: ServeProcess;
  afterAll(async () => {
    await srv?.stop();
  });

  it('tool calls and REST requests draw from the same per-key budget', async () => {
    srv = await spawnServe(['--rate-limit', '5'], { fixture: true });
    /*
     * How the implementation counts (src/server/app/extra-routes.ts, src/server/app/mcp.ts):
     * - every MCP HTTP request is authenticated at /api/v1/mcp, but only a tools/call runs
     *   through operations.invoke, which counts it once against the key's limit, exactly like a
     *   REST request;
     * - protocol traffic (initialize, notifications/initialized, tools/list, the optional
     *   GET stream probe) is authenticated but NOT counted, so a client can always connect
     *   and list tools, and an exhausted budget shows up as an isError tool result.
     */
    const client = await connect(srv.baseUrl, KEYS.editorW1);
    try {
      await client.listTools(undefined, { timeout: 10_000 }); // not counted

      const r1 = await rest(srv.baseUrl, 'GET', '/finance/summary', KEYS.editorW1); // 1
      expect(r1.status).toBe(200);
      expect(r1.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r1.headers.get('x-ratelimit-remaining')).toBe('4');

      expect((await call(client, 'listCrmAgents')).isError ?? false).toBe(false); // 2
      // A tool call that fails validation still counts (docs/api-decisions.md §3).
      expect((await call(client, 'listNurtureSequences', { limit: 0 })).isError).toBe(true); // 3

      const r4 = await rest(srv.baseUrl, 'GET', '/brand/brand-subjects', KEYS.editorW1); // 4
      expect(r4.status).toBe(200);
      expect(r4.headers.get('x-ratelimit-remaining')).toBe('1'); // the two tool calls were counted

      await client.listTools(undefined, { timeout: 10_000 }); // still not counted
      expect((await call(client, 'getFinanceSummary')).isError ?? false).toBe(false); // 5: the last allowed

      // 6th counted request, as a tool call: RATE_LIMITED.
      const sixth = await call(client, 'getFinanceSummary');
      expect(sixth.isError).toBe(true);
      expect(envelopeOf(sixth)).toEqual({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' });

      // ... and over REST: 429 with Retry-After.
      const rest7 = await rest(srv.baseUrl, 'GET', '/finance/summary', KEYS.editorW1);
      expect(rest7.status).toBe(429);
      expect(rest7.json).toEqual({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' });
      expect(rest7.headers.get('retry-after')).toBe('3600');

      // Handshake/listing still works (authenticated, not counted) ...
      const { tools } = await client.listTools(undefined, { timeout: 10_000 });
      expect(tools).toHaveLength(endpointList.length);
      // ... and other keys have their own budget, over MCP too.
      const other = await connect(srv.baseUrl, KEYS.viewerW1);
      try {
        expect((await call(other, 'getFinanceSummary')).isError ?? false).toBe(false);
      } finally {
        await other.close();
      }
    } finally {
      await client.close();
    }
  }, 30_000);
});
