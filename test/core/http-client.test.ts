import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/http/client.js';
import { endpoints } from '../../src/api/endpoints.js';
import { ApiError, NetworkError, ResponseError, UsageError } from '../../src/errors.js';
import { startTestServer, ok, fail, deadPort, type TestServer } from '../helpers/http-server.js';
import { financeData } from '../helpers/fixtures.js';
import { makeKey } from '../helpers/tmp.js';

const KEY = makeKey('1a2b', '9f0e', '7');
const UA = 'cr/9.9.9 node/test';

let server: TestServer;
const clients: ApiClient[] = [];

function client(extra: Partial<ClientOptions> = {}): ApiClient {
  const c = new ApiClient({ baseUrl: server.baseUrl, key: KEY, userAgent: UA, retryBaseMs: 2, timeoutMs: 5000, ...extra });
  clients.push(c);
  return c;
}

const summary = () => client().call(endpoints.getFinanceSummary);

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  server.reset();
  server.handle(ok({}));
});
afterAll(async () => {
  await server.close();
});

describe('ApiClient: success', () => {
  it('unwraps the success envelope to its data, sends GET to base URL + path', async () => {
    server.handle(ok(financeData(), { meta: { total: 1 } }));
    const res = await summary();
    expect(res.data).toEqual(financeData());
    expect(res.raw).toEqual(financeData());
    expect(res.response.status).toBe(200);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.path).toBe('/api/v1/finance/summary');
    expect(server.requests[0]!.body).toBe('');
  });

  it('sends Authorization: Bearer <key>, the User-Agent given, and accepts JSON', async () => {
    server.handle(ok(financeData()));
    await summary();
    const h = server.requests[0]!.headers;
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h['user-agent']).toBe(UA);
    expect(h.accept).toBe('application/json');
  });

  it('tolerates unknown extra fields and `raw` keeps them exactly', async () => {
    const data = financeData() as Record<string, unknown> & { summaries: Record<string, unknown>[] };
    data.summaries[0]!.futureField = { nested: [1, 'two', null] };
    data.brandNewTopLevel = 'x';
    server.handle(ok(data));
    const res = await summary();
    expect(res.raw).toEqual(data);
    expect(JSON.stringify(res.raw)).toBe(JSON.stringify(data));
    expect((res.data.summaries[0] as Record<string, unknown>).futureField).toEqual({ nested: [1, 'two', null] });
  });

  it('reuses keep-alive connections: calls spaced by a tick share one connection', async () => {
    server.handle(ok(financeData()));
    const before = server.connections();
    const c = client();
    for (let i = 0; i < 5; i++) {
      await c.call(endpoints.getFinanceSummary);
      await new Promise((r) => setImmediate(r));
    }
    expect(server.requests).toHaveLength(5);
    expect(server.connections() - before).toBe(1);
    expect(new Set(server.requests.map((r) => r.connection)).size).toBe(1);
  });

  it('reuses keep-alive connections: back-to-back calls open at most two (undici frees the socket a tick after the body)', async () => {
    server.handle(ok(financeData()));
    const before = server.connections();
    const c = client();
    for (let i = 0; i < 8; i++) await c.call(endpoints.getFinanceSummary);
    expect(server.requests).toHaveLength(8);
    expect(server.connections() - before).toBeLessThanOrEqual(2);
  });

  it('POST sends the JSON body with content-type application/json', async () => {
    server.handle(ok({ id: 'x' }));
    const c = client();
    const res = await c.send('POST', c.resolve('/content/listeners'), { name: 'Feed', n: 1 });
    expect(res.status).toBe(200);
    expect(server.requests[0]!.method).toBe('POST');
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[0]!.json).toEqual({ name: 'Feed', n: 1 });
  });
});

describe('ApiClient: error statuses → ApiError', () => {
  it('400 with details: status, code, message naming the fields, details kept', async () => {
    const details = [
      { path: 'name', message: 'Required' },
      { path: 'interval', message: 'Expected a number' },
    ];
    server.handle(fail(400, 'Invalid request body', 'VALIDATION_ERROR', { details }));
    const e = await apiError(summary());
    expect(e.status).toBe(400);
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details).toEqual(details);
    expect(e.message).toContain('Invalid request body');
    expect(e.message).toContain('name: Required');
    expect(e.message).toContain('interval: Expected a number');
    expect(e.message).toContain(`GET ${server.baseUrl}/finance/summary`);
    expect(e.method).toBe('GET');
  });

  it('401', async () => {
    server.handle(fail(401, 'Invalid API key', 'INVALID_API_KEY'));
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([401, 'INVALID_API_KEY']);
    expect(e.message).toMatch(/^Invalid API key/);
    expect(server.requests).toHaveLength(1);
  });

  it('403', async () => {
    server.handle(fail(403, 'Insufficient role', 'FORBIDDEN'));
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([403, 'FORBIDDEN']);
    expect(e.message).toMatch(/^Insufficient role/);
  });

  it("404 without a code: the CLI's stable NOT_FOUND, message and body kept", async () => {
    server.handle(fail(404, 'Post not found'));
    const e = await apiError(summary());
    expect(e.status).toBe(404);
    expect(e.code).toBe('NOT_FOUND');
    expect(e.body).toEqual({ success: false, error: 'Post not found' });
    expect(e.message).toMatch(/^Post not found/);
    expect(e.details).toBeUndefined();
  });

  it('409', async () => {
    server.handle(fail(409, 'Post is already published', 'CONFLICT'));
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([409, 'CONFLICT']);
    expect(e.message).toMatch(/^Post is already published/);
  });

  it('413', async () => {
    server.handle(fail(413, 'Body too large', 'PAYLOAD_TOO_LARGE'));
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('429 with Retry-After: retryAfter kept and the message says when', async () => {
    server.handle({ ...fail(429, 'Rate limit exceeded', 'RATE_LIMITED'), headers: { 'retry-after': '3600' } });
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([429, 'RATE_LIMITED']);
    expect(e.retryAfter).toBe('3600');
    expect(e.message).toMatch(/retry after \d{2}:\d{2} \(in 60 min\)/); // local clock time, src/http/rate-budget.ts
    expect(server.requests).toHaveLength(1);
  });

  it('500 is not retried', async () => {
    server.handle(fail(500, 'Internal error', 'INTERNAL_ERROR'));
    const e = await apiError(summary());
    expect([e.status, e.code]).toEqual([500, 'INTERNAL_ERROR']);
    expect(server.requests).toHaveLength(1);
  });

  it('an error status with a non-JSON body still becomes ApiError (HTTP <status>)', async () => {
    server.handle({ status: 502, body: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const c = client();
    const e = await apiError(c.call(endpoints.getFinanceSummary));
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/^HTTP 502/);
  });
});

describe('ApiClient: retries', () => {
  it('retries a GET on 503 then succeeds', async () => {
    server.queue(fail(503, 'Unavailable'), fail(503, 'Unavailable'));
    server.handle(ok(financeData()));
    const res = await summary();
    expect(res.data).toEqual(financeData());
    expect(server.requests).toHaveLength(3);
  });

  it('retries a GET on 502 and 504 too', async () => {
    server.queue(fail(502, 'Bad gateway'), fail(504, 'Gateway timeout'));
    server.handle(ok(financeData()));
    await summary();
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after 3 attempts on a persistent 503', async () => {
    server.handle(fail(503, 'Unavailable', 'UNAVAILABLE'));
    const e = await apiError(summary());
    expect(e.status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('never retries a POST on 503', async () => {
    server.handle(fail(503, 'Unavailable'));
    const c = client();
    const res = await c.send('POST', c.resolve('/content/listeners'), { a: 1 });
    expect(res.status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(() => c.unwrap('POST', c.resolve('/content/listeners'), res)).toThrow(ApiError);
  });

  it('logs the retries when a log is given', async () => {
    server.queue(fail(503, 'Unavailable'));
    server.handle(ok(financeData()));
    const lines: string[] = [];
    await client({ log: (l) => lines.push(l) }).call(endpoints.getFinanceSummary);
    expect(lines.some((l) => /retrying after HTTP 503 .*attempt 2 of 3/.test(l))).toBe(true);
  });
});

describe('ApiClient: network failures and bad bodies', () => {
  it('a timeout → NetworkError (retried for GET, 3 attempts in all)', async () => {
    server.handle({ ...ok(financeData()), delayMs: 2000 });
    const e = await client({ timeoutMs: 200 })
      .call(endpoints.getFinanceSummary)
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).message).toMatch(/Timed out after 0\.2 s/);
    // A time-out has its own code; the exit stays 8 (docs/cli-contract.md §5).
    expect((e as NetworkError).code).toBe('TIMEOUT');
    // Three attempts, each cut at 0.2 s: none waited for the 2 s answer (it would not be a timeout).
    expect(server.requests).toHaveLength(3);
  });

  it('a POST timeout → NetworkError after one attempt', async () => {
    server.handle({ ...ok({}), delayMs: 2000 });
    const c = client({ timeoutMs: 200 });
    const e = await c.send('POST', c.resolve('/x'), {}).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused → NetworkError naming the method and URL', async () => {
    const port = await deadPort();
    const c = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, key: KEY, userAgent: UA, retryBaseMs: 1, timeoutMs: 2000 });
    clients.push(c);
    const e = await c.call(endpoints.getFinanceSummary).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as Error).message).toContain('Connection refused');
    expect((e as Error).message).toContain(`GET http://127.0.0.1:${port}/api/v1/finance/summary`);
  });

  it('malformed JSON body → ResponseError with a clear message', async () => {
    server.handle({ status: 200, body: '{"success": true, "data": {', headers: { 'content-type': 'application/json' } });
    const e = await summary().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as ResponseError).code).toBe('BAD_RESPONSE');
    expect((e as Error).message).toContain(`GET ${server.baseUrl}/finance/summary`);
    expect((e as Error).message).toMatch(/HTTP 200 with a non-JSON body \(application\/json\)/);
  });

  it('JSON without a success envelope → ResponseError', async () => {
    server.handle({ status: 200, body: { summaries: [] } });
    const e = await summary().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as Error).message).toMatch(/without a success envelope/);
  });

  it('schema mismatch names the field path', async () => {
    const data = financeData() as unknown as { summaries: Record<string, unknown>[] };
    data.summaries[0]!.activeMrr = 'lots';
    server.handle(ok(data));
    const e = await summary().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as Error).message).toContain('data.summaries.0.activeMrr');
    expect((e as Error).message).toContain(`GET ${server.baseUrl}/finance/summary`);
  });
});

describe('ApiClient: verbose log', () => {
  it('logs request and response lines, never the whole key', async () => {
    server.handle(ok(financeData()));
    const lines: string[] = [];
    const c = client({ log: (l) => lines.push(l) });
    await c.call(endpoints.getFinanceSummary);
    // A key that ends up in a URL is redacted too.
    await c.send('GET', c.resolve('/echo', { token: KEY }));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.some((l) => l.startsWith('> GET ') && l.includes('/finance/summary'))).toBe(true);
    expect(lines.some((l) => l.startsWith('< 200 GET '))).toBe(true);
    expect(lines.some((l) => l.includes('cr_1a2b…9f0e'))).toBe(true);
    for (const l of lines) expect(l).not.toContain(KEY);
    // The server did receive the whole key.
    expect(server.requests[1]!.query.get('token')).toBe(KEY);
  });

  it('a key of another shape is masked too', async () => {
    server.handle(ok(financeData()));
    const odd = 'sk-live-abcdefghijklmnopqrstuvwxyz';
    const lines: string[] = [];
    await client({ key: odd, log: (l) => lines.push(l) }).call(endpoints.getFinanceSummary);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${odd}`);
    for (const l of lines) expect(l).not.toContain(odd);
  });
});

describe('ApiClient: URLs', () => {
  it('joins paths under the base URL (trailing slash tolerated) and appends defined query values', () => {
    const c = new ApiClient({ baseUrl: 'http://h.example/api/v1/', userAgent: UA });
    clients.push(c);
    expect(c.resolve('/finance/summary')).toBe('http://h.example/api/v1/finance/summary');
    expect(c.resolve('x', { a: 1, b: undefined, c: null, d: ['p', 'q'] })).toBe('http://h.example/api/v1/x?a=1&d=p&d=q');
  });
});

describe('ApiClient: bodies', () => {
  it('a body nested too deeply to write as JSON is a usage error, and nothing is sent', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const c = new ApiClient({ baseUrl: server.baseUrl, key: KEY, userAgent: UA });
    clients.push(c);
    const before = server.requests.length;
    const err = await c.send('POST', `${server.baseUrl}/content/listeners`, deep).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/nested too deeply/);
    expect(server.requests.length).toBe(before);
  });
});
