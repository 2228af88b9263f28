import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { FileHandleLike, StoreFs } from '../../src/server/store/fs-layer.js';
import { createMetrics } from '../../src/server/app/metrics.js';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';
import type { PooledStore } from '../../src/server/store/metrics-hooks.js';
import { KEYS, startFixtureServer } from './helpers.js';
import type { TestServer } from './helpers.js';

/**
 * GET /metrics (docs/local-server.md "Health, readiness, metrics"): Prometheus' text format,
 * parsed here sample by sample; labels name routes, statuses and causes, never a path with an
 * id, a key or a key id.
 */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format: `# HELP`/`# TYPE` lines, then `name{label="value",…} number`. */
function parseProm(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) => samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

let srv: TestServer;

beforeAll(async () => {
  srv = await startFixtureServer({ metrics: true, rateLimit: 2 });
});

afterAll(async () => {
  await srv?.stop();
});

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const res = await srv.req('GET', '/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { text: res.text, samples: parseProm(res.text) };
}

describe('GET /metrics', () => {
  it('counts requests by operation and status, with their latency, 429s by cause and group commits by size', async () => {
    const listener = { name: 'metrics', source_type: 'x', query_config: { handle: 'm' } };
    expect((await srv.req('POST', '/api/v1/content/listeners', { key: KEYS.editorW1, body: listener })).status).toBe(200);
    expect((await srv.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    expect((await srv.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    expect((await srv.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(429);
    expect((await srv.req('GET', '/api/v1/social/posts/c0000000-0000-4000-8000-000000000099/schedule', { key: KEYS.editorW1 })).status).toBe(405);
    expect((await srv.req('GET', '/api/v1/no/such/path')).status).toBe(404);
    const { text, samples } = await scrape();

    expect(value(samples, 'cr_http_requests_total', { route: 'getFinanceSummary', method: 'GET', status: '200' })).toBe(2);
    expect(value(samples, 'cr_http_requests_total', { route: 'getFinanceSummary', method: 'GET', status: '429' })).toBe(1);
    expect(value(samples, 'cr_http_requests_total', { route: 'createContentListener', method: 'POST', status: '200' })).toBe(1);
    // A 405 is counted under the route template, a 404 under one name: never the path asked for.
    expect(value(samples, 'cr_http_requests_total', { route: '/api/v1/social/posts/{id}/schedule', status: '405' })).toBe(1);
    expect(value(samples, 'cr_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(value(samples, 'cr_http_refused_total', { status: '429', cause: 'rate_limited' })).toBe(1);
    expect(value(samples, 'cr_http_request_duration_seconds_count', { route: 'getFinanceSummary' })).toBe(3);
    expect(value(samples, 'cr_http_request_duration_seconds_bucket', { route: 'getFinanceSummary', le: '+Inf' })).toBe(3);
    expect(value(samples, 'cr_store_group_commit_writes_count')).toBe(1);
    expect(value(samples, 'cr_store_group_commit_writes_sum')).toBe(1);
    expect(value(samples, 'cr_ready', { cause: '' })).toBe(1);
    // A JSON store has no pool: the gauge is declared and has no sample.
    expect(samples.some((s) => s.name === 'cr_store_pool_connections')).toBe(false);

    for (const secret of Object.values(KEYS)) expect(text).not.toContain(secret.slice(3, 15));
    expect(text).not.toContain('c0000000-0000-4000-8000-000000000099');
    expect(text).not.toContain('/no/such/path');
  });

  it('a scrape needs no key and costs no rate budget; it is counted under its own name', async () => {
    await scrape();
    const { samples } = await scrape();
    expect(value(samples, 'cr_http_requests_total', { route: 'metrics', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'cr_http_refused_total', { status: '429', cause: 'rate_limited' })).toBe(1);
  });

  it('a server started without metrics has no /metrics route', async () => {
    const plain = await startFixtureServer({});
    try {
      expect((await plain.req('GET', '/metrics')).status).toBe(404);
      expect((await plain.req('GET', '/healthz')).status).toBe(200);
    } finally {
      await plain.stop();
    }
  });

  it("a store's 503 is counted by its cause and its log line names it", async () => {
    let fail = false;
    // The journal's fsync fails on demand: the group commit answers StoreUnavailableError (write_failed).
    const fs: StoreFs = {
      ...nodeFs,
      open: async (p, flags, mode) => {
        const fh = await nodeFs.open(p, flags, mode);
        if (flags !== 'a') return fh;
        const bound: FileHandleLike = { writeFile: (d) => fh.writeFile(d), truncate: (n) => fh.truncate(n), close: () => fh.close(), sync: () => fh.sync() };
        return { ...bound, sync: () => (fail ? Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) : fh.sync()) };
      },
    };
    const lines: string[] = [];
    const failing = await startFixtureServer({ metrics: true, fs, log: (line) => lines.push(line) });
    try {
      fail = true;
      const res = await failing.req('POST', '/api/v1/content/listeners', { key: KEYS.editorW1, body: { name: 'x', source_type: 'x', query_config: { handle: 'h' } } });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      await new Promise((r) => setImmediate(r));
      expect(lines.at(-1)).toMatch(/ POST \/api\/v1\/content\/listeners 503 \d+ms key=\S+ cause=write_failed$/);
      const samples = parseProm((await failing.req('GET', '/metrics')).text);
      expect(value(samples, 'cr_http_refused_total', { status: '503', cause: 'write_failed' })).toBe(1);
      expect(value(samples, 'cr_http_requests_total', { route: 'createContentListener', status: '503' })).toBe(1);
    } finally {
      await failing.stop();
    }
  });

  it("a pooled store's connections are read at each scrape (the hook a database store implements)", async () => {
    const metrics = createMetrics(new ReadinessGate());
    let inUse = 3;
    const pooled: PooledStore = { poolStats: () => ({ inUse, idle: 7, waiting: 0 }) };
    metrics.attachStore(pooled);
    let samples = parseProm(await metrics.text());
    expect(value(samples, 'cr_store_pool_connections', { state: 'in_use' })).toBe(3);
    expect(value(samples, 'cr_store_pool_connections', { state: 'idle' })).toBe(7);
    expect(value(samples, 'cr_store_pool_connections', { state: 'waiting' })).toBe(0);
    inUse = 10;
    samples = parseProm(await metrics.text());
    expect(value(samples, 'cr_store_pool_connections', { state: 'in_use' })).toBe(10);
    // No store attached yet reads as starting.
    expect(value(samples, 'cr_ready', { cause: 'starting' })).toBe(0);
  });
});
