import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';
import { openForServing } from '../../src/server/open-for-serving.js';
import type { ServedStore } from '../../src/server/open-for-serving.js';
import { inProcessServer, IN_PROCESS_ORIGIN } from '../../src/server/transport/in-process.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { InProcessDispatcher } from '../../src/local/in-process-dispatcher.js';
import { KEYS, NOW, fixtureStore, startFixtureServer } from './helpers.js';
import type { TestServer } from './helpers.js';

/**
 * The routes a load balancer polls (docs/local-server.md "Health, readiness, metrics"): over
 * cr serve's socket and --local's in-process carrier alike, no key, never rate-limited, out of
 * the request log at the default level, and /readyz following the readiness the serve code holds.
 */
const lines: string[] = [];
const gate = new ReadinessGate();
let http: TestServer;
let local: ServedStore;
let dispatcher: InProcessDispatcher;
let cleanupLocal: () => Promise<void>;

beforeAll(async () => {
  // A budget of one request an hour: a probe that counted against a key would show at once.
  http = await startFixtureServer({ log: (line) => lines.push(line), readiness: gate, rateLimit: 1 });
  const s = await fixtureStore();
  cleanupLocal = s.cleanup;
  local = await openForServing(s.path, { clock: fixedClock(NOW), notice: () => {} });
  dispatcher = new InProcessDispatcher(inProcessServer(local.operations, () => {}));
});

afterAll(async () => {
  await http?.stop();
  await local?.close();
  await cleanupLocal?.();
});

/** Lets the log line of an answer be written. */
const turn = () => new Promise((r) => setImmediate(r));

async function inProcess(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await dispatcher.request({ origin: IN_PROCESS_ORIGIN, path, method: method as 'GET', headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers as Record<string, string>, json: text ? JSON.parse(text) : undefined };
}

const carriers = {
  'cr serve': (method: string, path: string, headers: Record<string, string> = {}) => http.req(method, path, { headers }),
  '--local in-process': inProcess,
};

for (const [name, send] of Object.entries(carriers)) {
  describe(`${name}: /healthz and /readyz`, () => {
    it('GET /healthz answers 200 with no key, uncached, with a request id', async () => {
      const res = await send('GET', '/healthz');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, data: { status: 'ok' } });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('a query string is ignored; another method is 405 naming GET and HEAD', async () => {
      expect((await send('GET', '/readyz?from=haproxy')).status).toBe(200);
      const res = await send('POST', '/healthz');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json).toEqual({ success: false, error: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' });
    });

    it('a foreign Host is refused as on every route (docs/api-decisions.md §8)', async () => {
      const res = await send('GET', '/healthz', { host: 'evil.example' });
      expect(res.status).toBe(403);
    });

    it("the client's X-Request-Id is echoed when safe, replaced when not", async () => {
      expect((await send('GET', '/healthz', { 'x-request-id': 'lb-42.a:b_c' })).headers['x-request-id']).toBe('lb-42.a:b_c');
      const unsafe = (await send('GET', '/healthz', { 'x-request-id': 'a b<script>' })).headers['x-request-id'];
      expect(unsafe).toMatch(/^[0-9a-f-]{36}$/);
      const long = (await send('GET', '/healthz', { 'x-request-id': 'x'.repeat(129) })).headers['x-request-id'];
      expect(long).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}

describe('cr serve: readiness, the rate limit and the log', () => {
  it('/readyz follows the readiness source: 503 with its cause, reason and Retry-After, then 200 again', async () => {
    expect((await http.req('GET', '/readyz')).status).toBe(200);
    gate.hold({ ready: false, cause: 'lock_lost', reason: 'another server took the store over' });
    try {
      const res = await http.req('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.json).toEqual({
        success: false,
        error: 'Not ready',
        code: 'NOT_READY',
        details: [
          { path: 'cause', message: 'lock_lost' },
          { path: 'reason', message: 'another server took the store over' },
        ],
      });
      // Liveness is not readiness: the process still answers.
      expect((await http.req('GET', '/healthz')).status).toBe(200);
    } finally {
      gate.hold(undefined);
    }
    expect((await http.req('GET', '/readyz')).status).toBe(200);
  });

  it('probes are never rate-limited and never logged at the default level; API requests are', async () => {
    const before = lines.length;
    for (let i = 0; i < 5; i++) expect((await http.req('GET', '/readyz', { key: KEYS.viewerW1 })).status).toBe(200);
    await turn();
    expect(lines.slice(before)).toEqual([]);
    expect((await http.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    expect((await http.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(429);
    await turn();
    expect(lines.slice(before).map((l) => l.replace(/^\S+ /, '').replace(/ \d+ms /, ' '))).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/finance\/summary 200 key=\S+$/),
      expect.stringMatching(/^GET \/api\/v1\/finance\/summary 429 key=\S+$/),
    ]);
  });

  it('--log-level debug logs the probes too', async () => {
    const debugLines: string[] = [];
    const srv = await startFixtureServer({ log: (line) => debugLines.push(line), logLevel: 'debug' });
    try {
      await srv.req('GET', '/healthz');
      await srv.req('GET', '/readyz');
      await turn();
      expect(debugLines.map((l) => l.replace(/^\S+ /, '').replace(/ \d+ms /, ' '))).toEqual(['GET /healthz 200 key=-', 'GET /readyz 200 key=-']);
    } finally {
      await srv.stop();
    }
  });

  it('a 503 of /readyz names its cause in the log line when probes are logged', async () => {
    const debugLines: string[] = [];
    const own = new ReadinessGate();
    const srv = await startFixtureServer({ log: (line) => debugLines.push(line), logLevel: 'debug', readiness: own, logFormat: 'json' });
    try {
      own.hold({ ready: false, cause: 'database_unreachable', reason: 'connection refused' });
      const res = await srv.req('GET', '/readyz', { headers: { 'x-request-id': 'probe-1' } });
      expect(res.status).toBe(503);
      await turn();
      const entry = JSON.parse(debugLines.at(-1)!);
      expect(entry).toMatchObject({ level: 'error', msg: 'request', request_id: 'probe-1', method: 'GET', path: '/readyz', status: 503, key_id: null, cause: 'database_unreachable' });
    } finally {
      await srv.stop();
    }
  });
});
