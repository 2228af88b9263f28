import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { KEYS, NOW, heldFixtureStore, request } from './helpers.js';
import { deadPort } from '../helpers/http-server.js';

/**
 * `cr serve` listens before its store is open (docs/api-decisions.md §7): meanwhile a load
 * balancer's probes are answered at once, /readyz with cause `starting`, while API requests
 * wait for the store (docs/local-server.md "Health, readiness, metrics").
 */
describe('probes while the store opens', () => {
  it('/healthz 200 and /readyz 503 starting before the store is open; 200 and the waiting request answered after', async () => {
    // The store's first read waits for the test: the server stays in its opening window.
    const { path, cleanup, fs: slowFs, release } = await heldFixtureStore();
    // startServer resolves once the store is open: the port is chosen before.
    const free = await deadPort();
    const starting = startServer({ port: free, storePath: path, fs: slowFs, log: false, clock: fixedClock(NOW), onInternalError: () => {} });
    const origin = `http://127.0.0.1:${free}`;
    try {
      let health = await request(origin, 'GET', '/healthz').catch(() => undefined);
      for (let i = 0; i < 200 && !health; i++) {
        await new Promise((r) => setTimeout(r, 10));
        health = await request(origin, 'GET', '/healthz').catch(() => undefined);
      }
      expect(health?.status).toBe(200);
      const ready = await request(origin, 'GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toBe('2');
      expect(ready.json).toMatchObject({
        code: 'NOT_READY',
        details: [
          { path: 'cause', message: 'starting' },
          { path: 'reason', message: expect.any(String) },
        ],
      });
      expect(ready.headers.date).toBeDefined();
      const waiting = request(origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 });
      release();
      const server = await starting;
      try {
        expect((await waiting).status).toBe(200);
        expect((await request(origin, 'GET', '/readyz')).status).toBe(200);
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
