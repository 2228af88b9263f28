import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeHttpDispatcher } from '../../src/http/node-dispatcher.js';
import { ApiClient } from '../../src/http/client.js';
import { NetworkError } from '../../src/errors.js';
import { describeNetworkFailure } from '../../src/http/network-errors.js';
import { deadPort } from '../helpers/http-server.js';
import { makeKey } from '../helpers/tmp.js';
import { runBin } from '../helpers/cli.js';

/**
 * The network dispatcher (node:http behind undici's dispatcher interface) against real
 * servers on 127.0.0.1: each test starts its own, whose handler does what the case needs
 * (stall, cut the body short, drop the connection, stream without end).
 */
interface Live {
  origin: string;
  /** Connections accepted, and how many of them have closed. */
  accepted: () => number;
  closed: () => number;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string; connection: number }[];
}

const servers: { closeAllConnections: () => void; close: (cb: (err?: Error) => void) => unknown }[] = [];
const dispatchers: NodeHttpDispatcher[] = [];

afterEach(async () => {
  for (const d of dispatchers.splice(0)) await d.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Live> {
  let accepted = 0;
  let closed = 0;
  const ids = new WeakMap<Socket, number>();
  const requests: Live['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString(), connection: ids.get(req.socket)! });
      handle(req, res);
    });
  });
  server.on('connection', (s: Socket) => {
    ids.set(s, accepted++);
    s.on('close', () => closed++);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, accepted: () => accepted, closed: () => closed, requests };
}

/**
 * A server that answers with raw bytes (what node:http's server would never write): `answer`
 * gets each connection's socket once a request's headers have come.
 */
async function serveRaw(answer: (socket: Socket) => void): Promise<{ origin: string; accepted: () => number }> {
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      head = '';
      answer(socket);
    });
  });
  servers.push({
    closeAllConnections: () => {
      for (const s of sockets) s.destroy();
    },
    close: (cb) => server.close(cb),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, accepted: () => accepted };
}

/** A promise's outcome within `ms`, or 'pending': a request that never settles fails its test at once. */
const within = <T>(p: Promise<T>, ms = 2000): Promise<T | 'pending'> => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

function dispatcher(options: ConstructorParameters<typeof NodeHttpDispatcher>[0] = {}): NodeHttpDispatcher {
  const d = new NodeHttpDispatcher(options);
  dispatchers.push(d);
  return d;
}

const text = async (res: Dispatcher.ResponseData) => {
  let out = '';
  for await (const chunk of res.body) out += String(chunk);
  return out;
};

/** The rejection of a promise (the test fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error & { code?: string };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  return check();
};

describe('NodeHttpDispatcher: requests and connections', () => {
  it('sends method, path, headers and body; answers with status, lower-cased headers (repeated ones as a list) and the body', async () => {
    const live = await serve((_req, res) => {
      res.setHeader('x-many', ['a', 'b']);
      res.writeHead(201, { 'content-type': 'application/json', 'x-one': 'é' });
      res.end('{"ok":true}');
    });
    const res = await dispatcher().request({
      origin: live.origin,
      path: '/api/v1/x?y=1',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Custom': 'v' },
      body: '{"name":"é"}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-many']).toEqual(['a', 'b']);
    // Header bytes read as latin1, as undici's request() reads them.
    expect(res.headers['x-one']).toBe('é');
    expect(await text(res)).toBe('{"ok":true}');
    expect(live.requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/x?y=1', body: '{"name":"é"}' });
    expect(live.requests[0]!.headers['x-custom']).toBe('v');
    expect(live.requests[0]!.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"é"}')));
  });

  it('keeps connections alive: sequential requests share one, and an idle one closes after keepAliveTimeout', async () => {
    const live = await serve((_req, res) => res.end('x'));
    const d = dispatcher({ keepAliveTimeout: 300 });
    for (let i = 0; i < 5; i++) expect(await text(await d.request({ origin: live.origin, path: '/', method: 'GET' }))).toBe('x');
    expect(live.accepted()).toBe(1);
    expect(new Set(live.requests.map((r) => r.connection))).toEqual(new Set([0]));
    expect(live.closed()).toBe(0);
    expect(await until(() => live.closed() === 1)).toBe(true);
  });

  it('opens at most `connections` at once to an origin; the others wait their turn', async () => {
    const live = await serve((_req, res) => setTimeout(() => res.end('x'), 30));
    const d = dispatcher({ connections: 2 });
    const all = await Promise.all(Array.from({ length: 6 }, () => d.request({ origin: live.origin, path: '/', method: 'GET' }).then(text)));
    expect(all).toEqual(Array(6).fill('x'));
    expect(live.accepted()).toBe(2);
  });

  it('backpressure: a consumer that holds the body back pauses the response, and its pause is no body timeout', async () => {
    const size = 4 * 1024 * 1024;
    const live = await serve((_req, res) => res.end(Buffer.alloc(size, 'b')));
    const res = await dispatcher().request({ origin: live.origin, path: '/', method: 'GET', bodyTimeout: 100 });
    // Not reading for longer than the body timeout: the response's buffer fills, the dispatcher pauses it.
    await new Promise((r) => setTimeout(r, 400));
    expect(res.body.readableLength).toBeLessThan(size);
    expect((await text(res)).length).toBe(size);
  });

  it('streams a request body given as a stream', async () => {
    const live = await serve((_req, res) => res.end('ok'));
    const res = await dispatcher().request({ origin: live.origin, path: '/', method: 'PUT', body: Readable.from(['one,', 'two,', 'three']) });
    expect(await text(res)).toBe('ok');
    expect(live.requests[0]!.body).toBe('one,two,three');
    expect(live.requests[0]!.headers['transfer-encoding']).toBe('chunked');
  });

  it('close() waits for the request under way, then closes the connections', async () => {
    const live = await serve((_req, res) => setTimeout(() => res.end('late'), 100));
    const d = dispatcher();
    const pending = d.request({ origin: live.origin, path: '/', method: 'GET' });
    const res = await pending;
    const closing = d.close();
    expect(await text(res)).toBe('late');
    await closing;
    expect(await until(() => live.closed() === 1)).toBe(true);
  });
});

describe('NodeHttpDispatcher: failures, with the codes src/http/network-errors.ts reads', () => {
  it('connection refused', async () => {
    const port = await deadPort();
    const e = await rejection(dispatcher().request({ origin: `http://127.0.0.1:${port}`, path: '/', method: 'GET' }));
    expect(e.code).toBe('ECONNREFUSED');
    expect(describeNetworkFailure(e, 1000)).toBe('Connection refused: is the server running?');
  });

  it('headersTimeout: a server that never answers', async () => {
    const live = await serve(() => undefined);
    const e = await rejection(dispatcher().request({ origin: live.origin, path: '/', method: 'GET', headersTimeout: 100 }));
    expect(e.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(describeNetworkFailure(e, 100)).toBe('Timed out after 0.1 s');
    // The connection is dropped, not left to the server.
    expect(await until(() => live.closed() === 1)).toBe(true);
  });

  it('bodyTimeout: a body that stops coming', async () => {
    const live = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part');
    });
    const res = await dispatcher().request({ origin: live.origin, path: '/', method: 'GET', bodyTimeout: 100 });
    const e = await rejection(text(res));
    expect(e.code).toBe('UND_ERR_BODY_TIMEOUT');
    expect(describeNetworkFailure(e, 100)).toBe('Timed out after 0.1 s');
  });

  it('the server drops the connection before answering: reset', async () => {
    const live = await serve((req) => req.socket.destroy());
    const e = await rejection(dispatcher().request({ origin: live.origin, path: '/', method: 'GET' }));
    expect(e.code).toBe('ECONNRESET');
    expect(describeNetworkFailure(e, 1000)).toBe('Connection reset by the server');
  });

  it('the server drops the connection in the middle of the body: reset', async () => {
    const live = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part', () => setTimeout(() => req.socket.destroy(), 20));
    });
    const res = await dispatcher().request({ origin: live.origin, path: '/', method: 'GET' });
    const e = await rejection(text(res));
    expect(describeNetworkFailure(e, 1000)).toBe('Connection reset by the server');
  });

  it('an abort signal ends the request and drops the connection', async () => {
    const live = await serve(() => undefined);
    const e = await rejection(dispatcher().request({ origin: live.origin, path: '/', method: 'GET', signal: AbortSignal.timeout(100) }));
    expect(e.name).toBe('TimeoutError');
    expect(await until(() => live.closed() === 1)).toBe(true);
  });

  it("response headers past Node's limit (16 KiB): undici's Headers Overflow error", async () => {
    const live = await serve((_req, res) => res.writeHead(200, { 'x-padding': 'a'.repeat(17_000) }).end());
    const e = await rejection(dispatcher().request({ origin: live.origin, path: '/', method: 'GET' }));
    expect(e.code).toBe('UND_ERR_HEADERS_OVERFLOW');
    expect(e.message).toMatch(/Headers Overflow/);
  });

  it('a 101 the request did not ask for: a socket error, as undici has it, never a request left unsettled', async () => {
    // Node hands such a socket to 'upgrade' listeners and, with none, destroys it without a
    // word: the request would never settle, and with nothing else keeping the event loop
    // alive the CLI would exit 0 having printed nothing.
    const live = await serveRaw((socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\nhello'));
    const outcome = await within(
      dispatcher()
        .request({ origin: live.origin, path: '/', method: 'GET' })
        .catch((e: unknown) => e),
    );
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error & { code?: string }).code).toBe('UND_ERR_SOCKET');
    expect(describeNetworkFailure(outcome, 1000)).toBe('Connection reset by the server');
  });

  it('bytes after a complete response: the response stands (as with undici), and the connection is not used again', async () => {
    // A 204 with a body, a Content-Length shorter than what follows: Node's parser reads the
    // rest as the next response and fails, but the one asked for is whole.
    const body = '{"success":true,"data":{}}';
    const live = await serveRaw((socket) => socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}GARBAGE`));
    const d = dispatcher();
    for (let i = 0; i < 2; i++) {
      const res = await d.request({ origin: live.origin, path: '/', method: 'POST', body: '{}' });
      expect(res.statusCode).toBe(200);
      expect(await text(res)).toBe(body);
    }
    expect(live.accepted()).toBe(2);
  });

  it('a response nobody asked for, sent on an idle kept-alive connection, is never taken as the next answer', async () => {
    // The server answers the first request, then writes a second, unasked-for response while
    // the connection sits idle in the pool; the next request must get its own answer.
    let answered = 0;
    const live = await serveRaw((socket) => {
      answered++;
      const body = JSON.stringify({ answer: answered });
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      if (answered === 1) {
        const fake = '{"fake":true}';
        setTimeout(() => socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${fake.length}\r\n\r\n${fake}`), 30);
      }
    });
    const d = dispatcher();
    const first = await d.request({ origin: live.origin, path: '/', method: 'GET' });
    expect(await text(first)).toBe('{"answer":1}');
    await new Promise((r) => setTimeout(r, 120));
    const second = await d.request({ origin: live.origin, path: '/', method: 'GET' });
    expect(second.statusCode).toBe(200);
    expect(await text(second)).toBe('{"answer":2}');
  });

  it('refuses the request headers undici refuses, before a byte is sent', async () => {
    const live = await serve((_req, res) => res.end());
    for (const [headers, why] of [
      [{ 'transfer-encoding': 'chunked' }, 'invalid transfer-encoding header'],
      [{ Expect: '100-continue' }, 'expect header not supported'],
      [{ upgrade: 'websocket' }, 'invalid upgrade header'],
      [{ 'content-length': '5' }, 'Request body length does not match content-length header'],
    ] as const) {
      const e = await rejection(dispatcher().request({ origin: live.origin, path: '/', method: 'POST', headers, body: '{}' }));
      expect(e.message).toBe(why);
    }
    expect(live.accepted()).toBe(0);
  });
});

describe('NodeHttpDispatcher under the HTTP core', () => {
  it('an endless body past the cap: RESPONSE_TOO_LARGE, not retried, and the server sees the connection go', async () => {
    const live = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const client = new ApiClient({ baseUrl: `${live.origin}/api/v1`, key: makeKey(), userAgent: 'cr/test', maxResponseBytes: 64 * 1024, retryBaseMs: 1 });
    const e = await rejection(client.send('GET', client.resolve('/x')));
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).code).toBe('RESPONSE_TOO_LARGE');
    expect(live.requests).toHaveLength(1);
    expect(await until(() => live.closed() === 1)).toBe(true);
    await client.close();
  });
});

describe('NodeHttpDispatcher over TLS (an https base URL loads node:https)', () => {
  // A self-signed certificate for 127.0.0.1, made once for these tests (valid until 2126).
  const CERT = new URL('./fixtures/tls-127.0.0.1.crt', import.meta.url).pathname;
  const KEY = new URL('./fixtures/tls-127.0.0.1.key', import.meta.url).pathname;

  async function serveTls(): Promise<string> {
    const server = createTlsServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { path: req.url } }));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('checks the certificate: one no CA vouches for fails as a certificate error saying how to trust a CA', async () => {
    const origin = await serveTls();
    const e = await rejection(dispatcher().request({ origin, path: '/', method: 'GET' }));
    expect(describeNetworkFailure(e, 1000)).toMatch(/^The server's TLS certificate is not trusted: .* \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)\. .*NODE_EXTRA_CA_CERTS/);
  });

  it('an https URL to a plain HTTP server: a TLS error named by its OpenSSL reason, as undici named it', async () => {
    const live = await serve((_req, res) => res.end());
    const e = await rejection(dispatcher().request({ origin: live.origin.replace('http:', 'https:'), path: '/', method: 'GET' }));
    expect(describeNetworkFailure(e, 1000)).toBe('TLS error (ERR_SSL_WRONG_VERSION_NUMBER)');
  });

  it('a CA given to Node (NODE_EXTRA_CA_CERTS, read at process start): cr api answers over TLS', async () => {
    const origin = await serveTls();
    const r = await runBin(['api', '/x'], { env: { CR_BASE_URL: `${origin}/api/v1`, CR_API_KEY: makeKey(), NODE_EXTRA_CA_CERTS: CERT } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: '/api/v1/x' });
  });
});
