import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { RateLimiter, rateLimitFileOf } from '../../src/server/app/rate-limit.js';
import { RateWindows } from '../../src/server/store/rate-windows.js';

/** The rate-limit half of the store interface over a store's windows (as the JSON and memory stores hold them). */
const storeOf = (w: RateWindows) => ({
  rateHit: async (keyId: string, now: number, windowMs: number) => w.hit(keyId, now, windowMs),
  ratePeek: async (keyId: string, now: number, windowMs: number) => w.peek(keyId, now, windowMs),
});
import { KEYS, fixtureStore, startFixtureServer } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const PATH = '/api/v1/finance/summary';

describe('rate limit (decisions §3), limit 5', () => {
  it('1-5 pass (validation failures count), 6 gets 429 + Retry-After 3600; a restart continues the count', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    let srv = await startFixtureServer({ storePath: store.path, rateLimit: 5 });
    const remaining: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const res = await srv.req('GET', PATH, { key: KEYS.viewerW1 });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    const invalid = await srv.req('GET', '/api/v1/content/nurture-sequences?limit=999', { key: KEYS.viewerW1 });
    expect(invalid.status).toBe(400);
    remaining.push(invalid.headers['x-ratelimit-remaining'] as string);
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const sixth = await srv.req('GET', PATH, { key: KEYS.viewerW1 });
    expect(sixth.status).toBe(429);
    expect(sixth.json).toEqual({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' });
    expect(sixth.headers['retry-after']).toBe('3600');
    expect(sixth.headers['x-ratelimit-remaining']).toBe('0');
    const reset = Number(sixth.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);

    // Another key has its own window.
    const other = await srv.req('GET', PATH, { key: KEYS.adminW1 });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('4');

    // Unauthenticated requests do not count against anybody.
    expect((await srv.req('GET', PATH, { key: KEYS.unknown })).status).toBe(401);

    await srv.close();
    const sidecar = JSON.parse(await readFile(rateLimitFileOf(store.path), 'utf8'));
    expect(Object.keys(sidecar.windows)).toHaveLength(2);

    srv = await startFixtureServer({ storePath: store.path, rateLimit: 5 });
    cleanups.push(() => srv.close());
    const afterRestart = await srv.req('GET', PATH, { key: KEYS.viewerW1 });
    expect(afterRestart.status).toBe(429);
    expect(Number(afterRestart.headers['x-ratelimit-reset'])).toBe(reset);
    const otherAfter = await srv.req('GET', PATH, { key: KEYS.adminW1 });
    expect(otherAfter.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('the window is fixed: it starts at the first request and resets one hour later (real clock, not CR_NOW)', async () => {
    let now = Date.UTC(2030, 0, 1, 10, 0, 0);
    const srv = await startFixtureServer({ rateLimit: 2, realClock: () => now });
    cleanups.push(() => srv.stop());
    const get = () => srv.req('GET', PATH, { key: KEYS.viewerW1 });
    expect((await get()).headers['x-ratelimit-reset']).toBe(String(now / 1000 + 3600));
    now += 30 * 60_000;
    const second = await get();
    expect(second.status).toBe(200);
    expect(second.headers['x-ratelimit-reset']).toBe(String(Date.UTC(2030, 0, 1, 11) / 1000));
    now += 29 * 60_000;
    expect((await get()).status).toBe(429);
    now += 60_000; // exactly one hour after the first request
    const fresh = await get();
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('1');
    expect(fresh.headers['x-ratelimit-reset']).toBe(String(now / 1000 + 3600));
  });

  it('counters are flushed at most once a second and on stop', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const file = rateLimitFileOf(store.path);
    const windows = new RateWindows({ file, flushIntervalMs: 1000 });
    const rl = new RateLimiter({ limit: 10, store: storeOf(windows) });
    await rl.hit('k1');
    await rl.hit('k1');
    await expect(readFile(file, 'utf8')).rejects.toThrow(); // not yet written
    await new Promise((r) => setTimeout(r, 1200));
    expect(JSON.parse(await readFile(file, 'utf8')).windows.k1.count).toBe(2);
    await rl.hit('k1');
    await windows.stop();
    expect(JSON.parse(await readFile(file, 'utf8')).windows.k1.count).toBe(3);
    const again = new RateWindows({ file });
    expect((await new RateLimiter({ limit: 10, store: storeOf(again) }).hit('k1')).remaining).toBe(6);
    await again.stop();
  });
  it('a sidecar count below zero is not taken: remaining never exceeds the limit', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const file = rateLimitFileOf(store.path);
    const now = Date.now();
    await writeFile(file, JSON.stringify({ version: 1, windowMs: 3_600_000, windows: { k: { start: now, count: -1_000_000 } } }));
    const windows = new RateWindows({ file, now: () => now });
    const rl = new RateLimiter({ limit: 10, now: () => now, store: storeOf(windows) });
    expect((await rl.hit('k')).remaining).toBe(9);
    await windows.stop();
  });
});

describe('a rate-limit window that starts in the future (decisions §9)', () => {
  it('is reset when the clock stepped back, in memory and when read from the sidecar', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    let now = Date.parse('2030-01-01T00:00:00Z');
    const file = rateLimitFileOf(store.path);
    const windows = new RateWindows({ file, now: () => now });
    const limiter = new RateLimiter({ limit: 2, now: () => now, store: storeOf(windows) });
    await limiter.hit('k');
    await limiter.hit('k');
    expect((await limiter.hit('k')).allowed).toBe(false);
    await windows.stop();

    // The clock goes back a year (a VM restored from an old snapshot).
    now = Date.parse('2029-01-01T00:00:00Z');
    const fresh = await limiter.hit('k');
    expect(fresh).toEqual({ allowed: true, limit: 2, remaining: 1, reset: Math.ceil((now + 3_600_000) / 1000) });

    // A restarted server reading the future window from the sidecar starts afresh too.
    const rereadWindows = new RateWindows({ file, now: () => now });
    const reread = new RateLimiter({ limit: 2, now: () => now, store: storeOf(rereadWindows) });
    const first = await reread.hit('k');
    expect(first.remaining).toBe(1);
    expect(first.reset).toBe(Math.ceil((now + 3_600_000) / 1000));
    await rereadWindows.stop();
    await windows.stop();
  });
});
