import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createApiKey } from '../../src/server/domain/keys.js';
import { routes } from '../../src/api/routes.js';
import { runBin } from '../helpers/cli.js';
import { crStdioTransport } from '../helpers/mcp-stdio.js';
import { cleanupTempDirs, tempDir, writeConfig } from '../helpers/tmp.js';
import { IDS, KEYS, startFixtureServer } from '../server/helpers.js';

/**
 * `cr mcp stdio` (docs/cli-contract.md "MCP over stdio"), driven the way a desktop agent drives it: the
 * SDK's Client over StdioClientTransport spawning the built bin/cr.js, against the real
 * local server (from the sources, fixture store, port 0) behind a TCP proxy on 127.0.0.1
 * that can drop a request's connection on demand.
 */

type FixtureServer = Awaited<ReturnType<typeof startFixtureServer>>;
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { data: unknown } };

const FUTURE = '2025-07-01T09:30:00.000Z';

interface Proxy {
  port: number;
  /** Destroys the connection carrying each of the next `n` POSTs before it reaches the server. */
  dropNext(n: number): void;
  dropped(): number;
  close(): Promise<void>;
}

async function startProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let drops = 0;
  let dropped = 0;
  const server: TcpServer = createTcpServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (drops > 0 && chunk.toString('latin1', 0, 5) === 'POST ') {
        drops--;
        dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    dropNext: (n) => {
      drops = n;
    },
    dropped: () => dropped,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Agent {
  client: Client;
  transport: StdioClientTransport;
  /** Every message the bridge wrote to stdout, as JSON text. */
  stdout: string[];
  stderr: () => string;
}

/** Spawns the command and args a printed client config holds (`cr` = node bin/cr.js) and connects. */
async function spawnAgent(args: string[], env: Record<string, string>): Promise<Agent> {
  const transport = crStdioTransport(args, { env });
  let err = '';
  transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cr-stdio-test', version: '0.0.0' });
  await client.connect(transport, { timeout: 15_000 });
  // After connect, so the client's own handler is the one wrapped (also sees the initialize answer via the transcript below).
  const stdout: string[] = [];
  const onmessage = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    stdout.push(JSON.stringify(m));
    onmessage(m);
  };
  return { client, transport, stdout, stderr: () => err };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 15_000 })) as ToolResult;

let srv: FixtureServer;
let proxy: Proxy;
let configDir: string;
let baseUrl: string;
let agent: Agent;
let extraKey: { key: string; id: string };

async function rest(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${KEYS.editorW1}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json()) as { data?: unknown } };
}

beforeAll(async () => {
  srv = await startFixtureServer();
  proxy = await startProxy(srv.port);
  baseUrl = `http://127.0.0.1:${proxy.port}/api/v1`;
  const made = await createApiKey(srv.operations.store, { role: 'viewer', websiteId: IDS.W1, name: 'to be revoked' });
  extraKey = { key: made.key, id: made.record.id };
  configDir = tempDir('cr-stdio-cfg-');
  writeConfig(configDir, {
    activeProfile: 'other',
    profiles: { agent: { baseUrl, apiKey: KEYS.editorW1 }, doomed: { baseUrl, apiKey: extraKey.key }, other: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: KEYS.viewerW1 } },
  });
  // The command and arguments come from the config `cr mcp config --client claude` prints.
  const printed = await runBin(['mcp', 'config', '--client', 'claude', '--profile', 'agent'], { configDir });
  expect(printed.exitCode, printed.stderr).toBe(0);
  const entry = (JSON.parse(printed.stdout) as { mcpServers: { cr: { command: string; args: string[] } } }).mcpServers.cr;
  expect(entry.command).toBe('cr');
  agent = await spawnAgent([...entry.args, '--verbose'], { HOME: configDir, CR_CONFIG_DIR: configDir });
}, 60_000);

afterAll(async () => {
  await agent?.client.close().catch(() => undefined);
  await proxy?.close();
  await srv?.stop();
  cleanupTempDirs();
});

describe('cr mcp stdio against the local server', () => {
  it('lists exactly the tools the server lists over HTTP (the bridge forwards, it does not define tools)', async () => {
    const { tools } = await agent.client.listTools(undefined, { timeout: 15_000 });
    const direct = new Client({ name: 'direct', version: '0' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/api/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEYS.editorW1}` } } }));
    try {
      const viaHttp = await direct.listTools(undefined, { timeout: 15_000 });
      expect(tools).toEqual(viaHttp.tools);
    } finally {
      await direct.close();
    }
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(routes).sort());
    // The agent's requests are logged with --verbose (method and id), on stderr.
    expect(agent.stderr()).toMatch(/cr mcp: → tools\/list #\d+/);
  });

  const reads: [string, Record<string, unknown>, string][] = [
    ['getFinanceSummary', {}, '/finance/summary'],
    ['listLearnings', { limit: 2 }, '/intelligence/learnings?limit=2'],
    ['listNurtureSequences', { limit: 2, offset: 1, status: 'active' }, '/content/nurture-sequences?limit=2&offset=1&status=active'],
    ['getGbpVisibility', { keyword: 'TEETH whitening' }, '/gbp/visibility?keyword=TEETH%20whitening'],
    ['listBrandSubjects', {}, '/brand/brand-subjects'],
    ['listCrmAgents', {}, '/integrations/crm/agents'],
  ];
  it.each(reads)('%s returns the same data as REST', async (tool, args, path) => {
    const r = await call(agent.client, tool, args);
    expect(r.isError ?? false).toBe(false);
    const viaRest = await rest('GET', path);
    expect(viaRest.status).toBe(200);
    expect(r.structuredContent).toEqual({ data: viaRest.json.data });
    expect(agent.stderr()).toContain(`→ tools/call #`);
    expect(agent.stderr()).toContain(` ${tool}\n`);
  });

  it('the three writes give what REST gives for the same input', async () => {
    const ad = { name: 'stdio creative', ad_format: 'single_image', destination_url: 'https://acme.example/s', campaign_id: 'camp-summer' };
    const viaTool = (await call(agent.client, 'createAdCreative', ad)).structuredContent!.data as Record<string, unknown>;
    const viaRest = (await rest('POST', '/content/ads/creatives/create', ad)).json.data as Record<string, unknown>;
    expect({ ...viaTool, id: 'x' }).toEqual({ ...viaRest, id: 'x' });

    const listener = { name: 'stdio listener', source_type: 'reddit', query_config: { subreddit: 'dentistry' }, poll_interval: '6h' };
    const lTool = (await call(agent.client, 'createContentListener', { ...listener, website_id: IDS.W1 })).structuredContent!.data as Record<string, unknown>;
    const lRest = (await rest('POST', `/content/listeners?website_id=${IDS.W1}`, listener)).json.data as Record<string, unknown>;
    expect({ ...lTool, id: 'x' }).toEqual({ ...lRest, id: 'x' });

    const sTool = await call(agent.client, 'scheduleSocialPost', { id: IDS.postDraft, scheduled_at: FUTURE });
    expect(sTool.isError ?? false).toBe(false);
    const sRest = await rest('POST', `/social/posts/${IDS.postDraft}/schedule`, { scheduled_at: FUTURE });
    expect(sRest.status).toBe(200);
    expect(sTool.structuredContent!.data).toEqual(sRest.json.data);
  });

  it('an invalid input is a tool error carrying the API envelope (not a protocol error)', async () => {
    const r = await call(agent.client, 'scheduleSocialPost', { id: 'not-a-uuid', scheduled_at: 'tomorrow' });
    expect(r.isError).toBe(true);
    const env = JSON.parse(r.content[0]!.text) as { code: string; details: { path: string }[] };
    expect(env.code).toBe('BAD_REQUEST');
    expect(env.details.map((d) => d.path).sort()).toEqual(['id', 'scheduled_at']);
  });

  it('a connection dropped mid-session: a read is retried once on a new connection and succeeds', async () => {
    const before = proxy.dropped();
    proxy.dropNext(1);
    const r = await call(agent.client, 'listBrandSubjects');
    expect(proxy.dropped()).toBe(before + 1);
    expect(r.isError ?? false).toBe(false);
    expect(r.structuredContent).toEqual({ data: (await rest('GET', '/brand/brand-subjects')).json.data });
    expect(agent.stderr()).toMatch(/tools\/call #\d+ listBrandSubjects: connection to the MCP endpoint failed .*; reconnecting and retrying once/);
  });

  it('a dropped write is not repeated: the agent gets a readable error, and the next call works', async () => {
    proxy.dropNext(1);
    const err = await call(agent.client, 'createAdCreative', { name: 'maybe', ad_format: 'single_image', destination_url: 'https://acme.example/m', campaign_id: 'camp-summer' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32000);
    expect((err as McpError).message).toMatch(/not retried: createAdCreative is not idempotent/);
    expect((await call(agent.client, 'getFinanceSummary')).isError ?? false).toBe(false);
  });

  it('a revoked key: the next request gets a JSON-RPC error naming the cause and the profile', async () => {
    const doomed = await spawnAgent(['mcp', 'stdio', '--profile', 'doomed'], { HOME: configDir, CR_CONFIG_DIR: configDir });
    try {
      expect((await call(doomed.client, 'listBrandSubjects')).isError ?? false).toBe(false);
      await srv.store.commit([{ op: 'patch', collection: 'api_keys', id: extraKey.id, patch: { revoked_at: new Date().toISOString() } }]);
      const err = await call(doomed.client, 'listBrandSubjects').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32001);
      expect((err as McpError).message).toContain('Invalid API key (HTTP 401)');
      expect((err as McpError).message).toContain('cr auth login --profile doomed');
      expect((err as McpError).data).toEqual({ status: 401, code: 'INVALID_API_KEY' });
      expect(doomed.stderr()).toContain('Invalid API key (HTTP 401)');
    } finally {
      await doomed.client.close();
    }
    for (const text of [doomed.stderr(), ...doomed.stdout]) expect(text).not.toContain(extraKey.key);
  });

  it('no key appears on stdout or stderr', () => {
    const all = [agent.stderr(), ...agent.stdout].join('\n');
    expect(agent.stdout.length).toBeGreaterThan(10);
    for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
    expect(all).not.toMatch(/cr_[0-9a-f]{40}/);
  });
});
