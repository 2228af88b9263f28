import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { ReadinessGate } from '../../src/server/app/readiness-gate.js';
import { KEYS, NOW, heldFixtureStore, request } from './helpers.js';
import { deadPort } from '../helpers/http-server.js';

/**
 * The 503s `cr serve` answers while its start-up waits for the store (src/server/app/opening-answer.ts)
 * are requests like any other: each has its request log line and is counted by the metrics,
 * the same counters the server keeps once the store is open (docs/local-server.md "Request log").
 */
describe('requests answered before the store is open', () => {
  it('each 503 starting has its log line (cause=starting) and is counted; the counts go on after the store opens', async () => {
    const { path, cleanup, fs: slowFs, release } = await heldFixtureStore();
    // A start-up that waits already: what store-wait.ts says while a database is not up.
    const readiness = new ReadinessGate();
    readiness.waiting('starting', 'nothing listens at 127.0.0.1:5432 (ECONNREFUSED)');
    const lines: string[] = [];
    const port = await deadPort();
    const origin = `http://127.0.0.1:${port}`;
    const starting = startServer({
      port,
      storePath: path,
      fs: slowFs,
      readiness,
      metrics: true,
      logFormat: 'json',
      log: (line) => lines.push(line),
      clock: fixedClock(NOW),
      onInternalError: () => {},
    });
    try {
      let refused = await request(origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1, headers: { 'x-request-id': 'lb-1' } }).catch(() => undefined);
      for (let i = 0; i < 200 && !refused; i++) {
        await new Promise((r) => setTimeout(r, 10));
        refused = await request(origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1, headers: { 'x-request-id': 'lb-1' } }).catch(() => undefined);
      }
      expect(refused?.status).toBe(503);
      expect(refused?.headers['x-request-id']).toBe('lb-1');
      const requests = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request');
      expect(requests).toEqual([expect.objectContaining({ request_id: 'lb-1', path: '/api/v1/finance/summary', status: 503, cause: 'starting' })]);
      release();
      const server = await starting;
      try {
        expect((await request(origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
        const metrics = (await request(origin, 'GET', '/metrics')).text;
        expect(metrics).toMatch(/cr_http_refused_total\{status="503",cause="starting"\} 1\n/);
        expect(metrics).toMatch(/cr_http_requests_total\{route="[^"]+",method="GET",status="503"\} 1\n/);
        expect(metrics).toMatch(/cr_http_requests_total\{route="[^"]+",method="GET",status="200"\} 1\n/);
      } finally {
        await server.close();
      }
    } finally {
      release();
      await starting.catch(() => undefined);
      await cleanup();
    }
  });
});
