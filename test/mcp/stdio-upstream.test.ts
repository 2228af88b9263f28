import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { crStdioTransport } from '../helpers/mcp-stdio.js';
import { startTestServer, type RecordedRequest, type Reply, type TestServer } from '../helpers/http-server.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { KEYS } from '../server/helpers.js';

/**
 * What the local server cannot produce on demand, from a scripted HTTP server on
 * 127.0.0.1: an HTTP 429 with Retry-After and X-RateLimit-Reset, a server-issued session
 * that expires (404), progress notifications in an SSE answer, and a slow call the agent
 * cancels. The bridge is the built `cr mcp stdio`, driven by the SDK's stdio client.
 */

const KEY = KEYS.editorW1;
type Rpc = { id?: string | number; method?: string; params?: Record<string, unknown> };

let stub: TestServer;
let session = 's1';
let sessions = 0;
/** Per-method answers a test sets; the default is a minimal stateful MCP server. */
let override: ((rpc: Rpc, req: RecordedRequest) => Reply | undefined) | undefined;

const result = (id: unknown, value: unknown, headers: Record<string, string> = {}): Reply => ({ status: 200, body: { jsonrpc: '2.0', id, result: value }, headers });

function mcpStub(req: RecordedRequest): Reply {
  if (req.method !== 'POST') return { status: 405, body: '' };
  const rpc = req.json as Rpc;
  const o = override?.(rpc, req);
  if (o) return o;
  if (rpc.method === 'initialize') {
    session = `s${++sessions}`;
    return result(rpc.id, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'stub', version: '1' } }, { 'mcp-session-id': session });
  }
  if (req.headers['mcp-session-id'] !== session) return { status: 404, body: { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } } };
  if (rpc.id === undefined) return { status: 202, body: '' };
  if (rpc.method === 'tools/list') return result(rpc.id, { tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
  return result(rpc.id, { content: [{ type: 'text', text: JSON.stringify(rpc.params?.arguments ?? {}) }] });
}

async function connect(): Promise<{ client: Client; stderr: () => string; seen: JSONRPCMessage[] }> {
  const dir = tempDir('cr-stdio-up-');
  const transport = crStdioTransport(['mcp', 'stdio', '--verbose'], { configDir: dir, env: { CR_BASE_URL: stub.baseUrl, CR_API_KEY: KEY } });
  let err = '';
  transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cr-stdio-test', version: '0' });
  await client.connect(transport, { timeout: 15_000 });
  open.push(client);
  // Every message the bridge writes to stdout, in order, before the client handles it.
  const seen: JSONRPCMessage[] = [];
  const handle = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    seen.push(m);
    handle(m);
  };
  return { client, stderr: () => err, seen };
}

const open: Client[] = [];
beforeAll(async () => {
  stub = await startTestServer(mcpStub);
});
afterEach(async () => {
  override = undefined;
  await Promise.allSettled(open.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await stub?.close();
  cleanupTempDirs();
});

const posted = (method: string) => stub.requests.filter((r) => (r.json as Rpc | undefined)?.method === method);

describe('cr mcp stdio: what only a scripted server shows', () => {
  it('sends the key as a bearer header, keeps the session id the server issued and the protocol version', async () => {
    const { client, stderr } = await connect();
    await client.callTool({ name: 'echo', arguments: { a: 1 } }, undefined, { timeout: 15_000 });
    const last = posted('tools/call').at(-1)!;
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last.headers['mcp-session-id']).toBe(session);
    expect(last.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(last.headers['user-agent']).toMatch(/^cr\//);
    expect(stderr()).not.toContain(KEY);
  });

  it('a 429 answers the request with a JSON-RPC error holding the API message and when to retry', async () => {
    const { client, stderr } = await connect();
    const reset = Math.floor(Date.now() / 1000) + 120;
    override = (rpc) =>
      rpc.method === 'tools/call'
        ? { status: 429, body: { success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }, headers: { 'retry-after': '120', 'x-ratelimit-reset': String(reset) } }
        : undefined;
    const err = await client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 15_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    const e = err as McpError;
    expect(e.code).toBe(-32029);
    expect(e.message).toContain('Rate limit exceeded (HTTP 429); retry after 2 minutes');
    expect(e.data).toEqual({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 120, retryAt: new Date(reset * 1000).toISOString() });
    expect(stderr()).toMatch(/tools\/call #\d+ echo failed: Rate limit exceeded/);
    // Once the limit is gone, the same bridge carries on.
    override = undefined;
    await expect(client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 15_000 })).resolves.toBeDefined();
  });

  it('a 429 whose Retry-After and X-RateLimit-Reset are out of range: still -32029, "retry later", no bogus time', async () => {
    const { client } = await connect();
    const huge = '99999999999999';
    override = (rpc) =>
      rpc.method === 'tools/call'
        ? { status: 429, body: { success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }, headers: { 'retry-after': huge, 'x-ratelimit-reset': huge } }
        : undefined;
    const e = (await client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 15_000 }).catch((x: unknown) => x)) as McpError;
    expect(e).toBeInstanceOf(McpError);
    expect(e.code).toBe(-32029);
    expect(e.message).toContain('Rate limit exceeded (HTTP 429); retry later');
    expect(e.data).toEqual({ status: 429, code: 'RATE_LIMITED' });
    override = undefined;
  });

  it("an expired session (404): the bridge starts a new one with the agent's initialize and retries once", async () => {
    const { client, stderr } = await connect();
    const inits = posted('initialize').length;
    // The agent does not wait for its initialized notification to be delivered; the server does.
    await expect.poll(() => posted('notifications/initialized').at(-1)?.headers['mcp-session-id'], { timeout: 5_000 }).toBe(session);
    session = 'expired-on-the-server';
    const r = (await client.callTool({ name: 'echo', arguments: { again: true } }, undefined, { timeout: 15_000 })) as { content: { text: string }[] };
    expect(JSON.parse(r.content[0]!.text)).toEqual({ again: true });
    const replay = posted('initialize').slice(inits);
    expect(replay).toHaveLength(1);
    expect(replay[0]!.headers['mcp-session-id']).toBeUndefined();
    expect(String((replay[0]!.json as Rpc).id)).toMatch(/^cr-bridge-reinit-/);
    expect(posted('tools/call').at(-1)!.headers['mcp-session-id']).toBe(session);
    expect(stderr()).toContain('starting a new session and retrying once');
  });

  it('progress notifications in an SSE answer reach the agent, in order, before the result', async () => {
    const { client, seen } = await connect();
    let token: unknown;
    override = (rpc) => {
      if (rpc.method !== 'tools/call') return undefined;
      token = (rpc.params?._meta as { progressToken?: unknown })?.progressToken;
      const events = [
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 2, total: 2 } },
        { jsonrpc: '2.0', id: rpc.id, result: { content: [{ type: 'text', text: 'done' }] } },
      ];
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: events.map((e) => `event: message\ndata: ${JSON.stringify(e)}\n\n`).join('') };
    };
    const r = (await client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 15_000, onprogress: () => undefined })) as { content: { text: string }[] };
    expect(r.content[0]!.text).toBe('done');
    expect(token).toBeDefined();
    // (The SDK client itself may drop progress that arrives in the same read as the result.)
    expect(seen.map((m) => ('method' in m ? `${m.method} ${String((m.params as { progress?: number }).progress)}` : 'result'))).toEqual([
      'notifications/progress 1',
      'notifications/progress 2',
      'result',
    ]);
    expect(seen.slice(0, 2).map((m) => ('params' in m ? (m.params as { progressToken?: unknown }).progressToken : undefined))).toEqual([token, token]);
  });

  it("a cancelled call: the agent's notifications/cancelled is forwarded to the server", async () => {
    const { client } = await connect();
    override = (rpc) => (rpc.method === 'tools/call' ? { ...result(rpc.id, { content: [] }), delayMs: 3_000 } : undefined);
    const calls = posted('tools/call').length;
    const ac = new AbortController();
    const pending = client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 15_000, signal: ac.signal });
    await expect.poll(() => posted('tools/call').length, { timeout: 5_000 }).toBe(calls + 1);
    const callId = (posted('tools/call').at(-1)!.json as Rpc).id;
    ac.abort('no longer needed');
    await expect(pending).rejects.toThrow();
    await expect.poll(() => posted('notifications/cancelled').map((r) => (r.json as Rpc).params?.requestId), { timeout: 5_000 }).toContain(callId);
  });
});
