import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, KEYS, MCP_HEADERS, V, listenerBody, parseRawResponse, rawExchange, request, startFixtureServer } from './support.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Item 7: bodies over 1 MiB get the 413 envelope and never reach a handler (Content-Length
 * and chunked, every write route and /api/v1/mcp); bytes Node's HTTP parser refuses
 * (malformed or conflicting Content-Length, broken request lines) still get the JSON envelope
 * with `Connection: close`.
 */
const MiB = 1024 * 1024;
let srv: TestServer;
beforeAll(async () => {
  srv = await startFixtureServer({ rateLimit: 1_000_000 });
});
afterAll(async () => {
  await srv?.stop();
});

/** A valid JSON body padded with spaces to exactly `size` bytes: without a limit the handler would accept it. */
function padded(value: unknown, size: number): Buffer {
  const text = JSON.stringify(value);
  if (text.length > size) throw new Error('body larger than the target size');
  return Buffer.from(text + ' '.repeat(size - text.length));
}

const TOO_LARGE = { success: false, error: 'Payload too large', code: 'PAYLOAD_TOO_LARGE' };
const BAD_REQUEST = { success: false, error: 'Bad request', code: 'BAD_REQUEST' };

interface WriteRoute {
  name: string;
  path: string;
  body: unknown;
  headers?: Record<string, string>;
}

const ROUTES: WriteRoute[] = [
  { name: 'ads create', path: `${V}/content/ads/creatives/create`, body: { ad_format: 'single_image', name: 'Big', destination_url: 'https://acme.example/' } },
  { name: 'listeners create', path: `${V}/content/listeners`, body: listenerBody },
  { name: 'posts schedule', path: `${V}/social/posts/${IDS.postDraft}/schedule`, body: { scheduled_at: '2025-07-01T09:00:00Z' } },
  {
    name: 'MCP tools/call createContentListener',
    path: `${V}/mcp`,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'createContentListener', arguments: listenerBody } },
    headers: { ...MCP_HEADERS },
  },
];

const state = () => JSON.stringify([srv.store.list('ad_creatives'), srv.store.list('content_listeners'), srv.store.list('social_posts')]);

describe('body limit', () => {
  for (const chunked of [false, true]) {
    it(`1 MiB + 1 byte ${chunked ? 'chunked (no Content-Length)' : 'with Content-Length'}: 413 envelope on every write route and MCP, store unchanged`, async () => {
      const before = state();
      for (const r of ROUTES) {
        const res = await request(srv.url, 'POST', r.path, { key: KEYS.editorW1, rawBody: padded(r.body, MiB + 1), chunked, headers: r.headers });
        expect(res.status, `${r.name}: ${res.text}`).toBe(413);
        expect(res.json, r.name).toStrictEqual(TOO_LARGE);
        expect(String(res.headers['content-type'])).toMatch(/application\/json/);
      }
      expect(state(), 'no handler ran').toBe(before);
    });
  }

  it('a declared Content-Length over 1 MiB is refused before the body is read (headers only, nothing sent)', async () => {
    const before = state();
    const raw = await rawExchange(
      srv.port,
      `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: ${MiB + 1}\r\n\r\n`,
      3_000,
    );
    const res = parseRawResponse(raw.text);
    expect(res.status, raw.text).toBe(413);
    expect(JSON.parse(res.body)).toStrictEqual(TOO_LARGE);
    expect(state()).toBe(before);
  });

  it('Expect: 100-continue with a declared body over 1 MiB: the 413 comes without a 100 Continue (the body is never asked for)', async () => {
    for (const path of [`${V}/content/listeners`, `${V}/mcp`]) {
      const raw = await rawExchange(
        srv.port,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${MiB + 1}\r\nExpect: 100-continue\r\n\r\n`,
        3_000,
      );
      expect(raw.text, path).not.toContain('100 Continue');
      expect(parseRawResponse(raw.text).status, raw.text).toBe(413);
      expect(raw.closed, 'the connection closes: a body may still be on its way').toBe(true);
    }
  });

  it('Expect: 100-continue with a body within the limit: 100 Continue, then the body is read and the request answered', async () => {
    const body = JSON.stringify(listenerBody);
    const socket = connect(srv.port, '127.0.0.1');
    let text = '';
    let sent = false;
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      // The client waits for the 100 before it sends the body, as curl does.
      if (text.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !sent) {
        sent = true;
        socket.write(body);
      }
    });
    socket.write(
      `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((r) => socket.once('close', r));
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\n'), text).toBe(true);
    expect(parseRawResponse(text.slice('HTTP/1.1 100 Continue\r\n\r\n'.length)).status, text).toBe(200);
  });

  it('Expect: 100-continue with a foreign Host: the 403 comes without a 100 Continue, on REST and MCP', async () => {
    for (const path of [`${V}/content/listeners`, `${V}/mcp`]) {
      const raw = await rawExchange(
        srv.port,
        `POST ${path} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 12\r\nExpect: 100-continue\r\n\r\n`,
        3_000,
      );
      expect(raw.text, path).not.toContain('100 Continue');
      expect(parseRawResponse(raw.text).status, raw.text).toBe(403);
      expect(raw.closed, path).toBe(true);
    }
  });

  it('Expect: 100-continue on a request without a body (a GET): answered and the connection kept for the next request', async () => {
    // No body can be on its way, so nothing calls for closing the connection after the answer.
    const get = (extra: string) => `GET ${V}/finance/summary HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\n${extra}\r\n`;
    const raw = await rawExchange(srv.port, get('Expect: 100-continue\r\n') + get('Connection: close\r\n'), 3_000);
    expect(raw.text.match(/HTTP\/1\.1 200 /g), raw.text).toHaveLength(2);
    expect(raw.closed).toBe(true);
  });

  it('control: exactly 1 MiB is accepted (the limit is exact), on REST and MCP', async () => {
    const count = srv.store.list('content_listeners').length;
    const rest = await request(srv.url, 'POST', `${V}/content/listeners`, { key: KEYS.editorW1, rawBody: padded(listenerBody, MiB) });
    expect(rest.status, rest.text).toBe(200);
    const mcp = await request(srv.url, 'POST', `${V}/mcp`, { key: KEYS.editorW1, rawBody: padded(ROUTES[3]!.body, MiB), headers: { ...MCP_HEADERS } });
    expect(mcp.status, mcp.text).toBe(200);
    expect(mcp.json.result.isError).toBeUndefined();
    expect(srv.store.list('content_listeners')).toHaveLength(count + 2);
  });

  const body = '{"name":"x"}';
  const head = (extra: string) => `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\n${extra}\r\n`;
  const MALFORMED: [string, string][] = [
    ['Content-Length: abc', head('Content-Length: abc\r\n') + body],
    ['Content-Length: -1', head('Content-Length: -1\r\n') + body],
    ['Content-Length: 1e3', head('Content-Length: 1e3\r\n') + body],
    ['duplicate conflicting Content-Length', head(`Content-Length: ${body.length}\r\nContent-Length: ${body.length + 5}\r\n`) + body],
    ['Content-Length list with conflicting values', head(`Content-Length: ${body.length}, ${body.length + 1}\r\n`) + body],
    ['Content-Length together with chunked', head(`Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`) + `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`],
    ['bad chunk size', head('Transfer-Encoding: chunked\r\n') + `zz\r\n${body}\r\n0\r\n\r\n`],
    ['header without a colon', head('This is not a header\r\n') + body],
    ['garbage request line', 'HELLO THERE\r\n\r\n'],
    ['HTTP/2 preface on an HTTP/1.1 port', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ];

  for (const [name, text] of MALFORMED) {
    it(`raw socket, ${name}: HTTP/1.1 400 with the JSON envelope and Connection: close; nothing written`, async () => {
      const before = state();
      const raw = await rawExchange(srv.port, text.replace('PORT', String(srv.port)), 3_000);
      const res = parseRawResponse(raw.text);
      expect(raw.text.startsWith('HTTP/1.1 400 '), raw.text).toBe(true);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.headers.connection).toBe('close');
      expect(Number.isNaN(Date.parse(res.headers.date ?? '')), 'a Date header like every answer').toBe(false);
      expect(JSON.parse(res.body)).toStrictEqual(BAD_REQUEST);
      expect(raw.closed, 'the server closes the connection').toBe(true);
      expect(state()).toBe(before);
    });
  }

  it('after all of that the server still answers normally', async () => {
    const res = await request(srv.url, 'GET', `${V}/finance/summary`, { key: KEYS.viewerW1 });
    expect(res.status).toBe(200);
  });
});
