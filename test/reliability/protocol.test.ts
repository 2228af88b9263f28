import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, MCP_HEADERS, V, keepAliveClient, listenerBody, mcpCall, startFixtureServer } from './support.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Protocol hygiene of the local server (docs/api-decisions.md §9): 415 for a body that is not JSON,
 * the RFC 6750 challenge on every 401, and the X-RateLimit-* headers on MCP answers too.
 */
let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.stop().catch(() => undefined);
  srv = undefined;
});

const MEDIA_415 = { success: false, error: 'Content-Type must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' };
/** A POST with exactly these headers (no Content-Type added when none is given). */
async function post(path: string, rawBody: string, headers: Record<string, string>, key: string | null = KEYS.editorW1) {
  const client = keepAliveClient(srv!.url, 1);
  try {
    return await client.send('POST', `${V}${path}`, { headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: rawBody });
  } finally {
    client.close();
  }
}

describe('415 Content-Type must be application/json', () => {
  it('a body sent as text/plain, form, multipart or with no Content-Type: 415, nothing written (REST)', async () => {
    srv = await startFixtureServer();
    const before = srv.store.list('content_listeners').length;
    const body = JSON.stringify(listenerBody);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'json', '']) {
      const res = await post('/content/listeners', body, type ? { 'content-type': type } : {});
      expect([type, res.status]).toEqual([type, 415]);
      expect(res.json).toEqual(MEDIA_415);
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
    }
    expect(srv.store.list('content_listeners')).toHaveLength(before);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset=UTF-8', 'application/vnd.api+json', 'application/merge-patch+json']) {
      const res = await post('/content/listeners', body, { 'content-type': type });
      expect([type, res.status]).toEqual([type, 200]);
    }
  });

  it('order: the key comes first (401 without one); an empty body is no body (the validation 400 as before)', async () => {
    srv = await startFixtureServer();
    const noKey = await post('/content/listeners', 'name=x', { 'content-type': 'text/plain' }, null);
    expect(noKey.status).toBe(401);
    const empty = await post('/content/listeners', '', {});
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('Validation error');
  });

  it('MCP: a body that is not JSON gets the same 415 envelope', async () => {
    srv = await startFixtureServer();
    const res = await fetch(`${srv.url}${V}/mcp`, {
      method: 'POST',
      headers: { accept: MCP_HEADERS.accept, 'content-type': 'text/plain', authorization: `Bearer ${KEYS.editorW1}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual(MEDIA_415);
  });
});

describe('WWW-Authenticate on every 401 (RFC 6750)', () => {
  it('REST and MCP: realm only without a key; error="invalid_token" when one was sent', async () => {
    srv = await startFixtureServer();
    const cases: [string | null, string][] = [
      [null, 'Bearer realm="cr"'],
      [KEYS.unknown, 'Bearer realm="cr", error="invalid_token"'],
      [KEYS.revoked, 'Bearer realm="cr", error="invalid_token"'],
      ['not-a-key', 'Bearer realm="cr", error="invalid_token"'],
    ];
    for (const [key, challenge] of cases) {
      const rest = await srv.req('GET', `${V}/finance/summary`, { key });
      expect([key, rest.status, rest.headers['www-authenticate']]).toEqual([key, 401, challenge]);
      const write = await srv.req('POST', `${V}/content/listeners`, { key, body: listenerBody });
      expect(write.headers['www-authenticate']).toBe(challenge);
      const mcp = await fetch(`${srv.url}${V}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect([key, mcp.status, mcp.headers.get('www-authenticate')]).toEqual([key, 401, challenge]);
    }
  });
});

describe('X-RateLimit-* on MCP answers', () => {
  it('tools/call counts like REST and says so in the headers; tools/list carries them without counting', async () => {
    srv = await startFixtureServer({ rateLimit: 10 });
    const rest = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1 });
    expect(rest.headers['x-ratelimit-remaining']).toBe('9');
    const reset = rest.headers['x-ratelimit-reset'];
    const call = await fetch(`${srv.url}${V}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${KEYS.adminW1}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getFinanceSummary', arguments: {} } }),
    });
    expect(call.status).toBe(200);
    expect([call.headers.get('x-ratelimit-limit'), call.headers.get('x-ratelimit-remaining'), call.headers.get('x-ratelimit-reset')]).toEqual(['10', '8', reset]);
    const list = await fetch(`${srv.url}${V}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${KEYS.adminW1}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(list.headers.get('x-ratelimit-remaining')).toBe('8');
    const viaHelper = await mcpCall(srv.url, `Bearer ${KEYS.adminW1}`, 'listCrmAgents', {});
    expect(viaHelper.status).toBe(200);
    expect((await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1 })).headers['x-ratelimit-remaining']).toBe('6');
  });
});

describe('a client that goes away mid-upload', () => {
  // The second path has an escape: the router matches it only once decoded (router.ts).
  it.each([`${V}/content/listeners`, `${V}/content/%6Cisteners`])(
    'is not an internal error: nothing is written, its log line says 499 (no 500), the server answers the next request (%s)',
    async (path) => {
      const lines: string[] = [];
      const internal: unknown[] = [];
      srv = await startFixtureServer({ log: (line) => lines.push(line), onInternalError: (err) => internal.push(err) });
      const before = srv.store.list('content_listeners').length;
      const { port } = new URL(srv.url);
      const { connect } = await import('node:net');
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(internal).toEqual([]);
      expect(lines.filter((l) => / 500 /.test(l))).toEqual([]);
      expect(lines.filter((l) => l.includes(' POST ') && / 499 /.test(l))).toHaveLength(1);
      expect(srv.store.list('content_listeners')).toHaveLength(before);
      const after = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.viewerW1 });
      expect(after.status).toBe(200);
    },
  );
});
