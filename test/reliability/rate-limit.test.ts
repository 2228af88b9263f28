import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { rateLimitFileOf } from '../../src/server/app/rate-limit.js';
import { FIXTURE, KEYS, V, ensureBuilt, keepAliveClient, pool, sleep, spawnServe, startFixtureServer, stopServe } from './support.js';

/**
 * Item 10: the rate limit (docs/api-decisions.md §3). Default 1,000 per key per fixed hour window,
 * 429 + Retry-After: 3600 on the 1,001st; other keys unaffected; counts survive SIGTERM and
 * restart of `cr serve`; a SIGKILL forgets at most the last flush interval (1 s); the window
 * resets after an hour of real (injected) time.
 */
const PATH = `${V}/finance/summary`;
const auth = (k: string) => ({ authorization: `Bearer ${k}` });
const RATE_LIMITED = { success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' };

afterAll(() => cleanupTempDirs());

describe('rate limit in-process', () => {
  it('default limit: 1,000 pass, the 1,001st gets 429 with Retry-After: 3600; other keys unaffected', async () => {
    const srv = await startFixtureServer(); // no rateLimit option: the default
    const client = keepAliveClient(srv.url, 8);
    try {
      const t0 = performance.now();
      const statuses: number[] = [];
      const remaining = new Set<string>();
      await pool(Array.from({ length: 1000 }), 8, async () => {
        const r = await client.send('GET', PATH, { headers: auth(KEYS.viewerW1) });
        statuses.push(r.status);
        remaining.add(String(r.headers['x-ratelimit-remaining']));
        expect(r.headers['x-ratelimit-limit']).toBe('1000');
      });
      const ms = performance.now() - t0;
      console.log(`rate limit: 1,000 requests on 8 keep-alive connections in ${ms.toFixed(0)} ms`);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
      // Every request got its own count: remaining ran 999 … 0 exactly once each.
      expect(remaining.size).toBe(1000);
      expect(remaining.has('0')).toBe(true);

      const over = await client.send('GET', PATH, { headers: auth(KEYS.viewerW1) });
      expect(over.status).toBe(429);
      expect(over.json).toStrictEqual(RATE_LIMITED);
      expect(over.headers['retry-after']).toBe('3600');
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      // Still limited for writes and MCP tool calls of the same key.
      const write = await client.send('POST', `${V}/content/listeners`, { headers: { ...auth(KEYS.viewerW1), 'content-type': 'application/json' }, body: '{}' });
      expect(write.status).toBe(429);

      for (const other of [KEYS.adminW1, KEYS.editorW1, KEYS.viewerAgency]) {
        const r = await client.send('GET', PATH, { headers: auth(other) });
        expect(r.status, other).toBe(200);
        expect(r.headers['x-ratelimit-remaining']).toBe('999');
      }
    } finally {
      client.close();
      await srv.stop();
    }
  }, 60_000);

  it('the window resets one hour after its first request (injected real clock), not before', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const srv = await startFixtureServer({ rateLimit: 3, realClock: () => now });
    try {
      const get = () => srv.req('GET', PATH, { key: KEYS.viewerW1 });
      for (let i = 0; i < 3; i++) {
        expect((await get()).status).toBe(200);
        now += 1_000;
      }
      expect((await get()).status).toBe(429);
      now = Date.parse('2030-01-01T00:00:00Z') + 3_600_000 - 1;
      const last = await get();
      expect(last.status).toBe(429);
      expect(Number(last.headers['x-ratelimit-reset'])).toBe(Date.parse('2030-01-01T01:00:00Z') / 1000);
      now += 1;
      const fresh = await get();
      expect(fresh.status).toBe(200);
      expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
      expect(Number(fresh.headers['x-ratelimit-reset'])).toBe(Date.parse('2030-01-01T02:00:00Z') / 1000);
    } finally {
      await srv.stop();
    }
  });
});

describe('rate limit across restarts of cr serve', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  const setup = () => {
    const dir = tempDir('cr-rl-');
    const storePath = join(dir, 'store.json');
    copyFileSync(FIXTURE, storePath);
    return { dir, storePath };
  };
  const remainingAfterOne = async (origin: string) => {
    const client = keepAliveClient(origin, 1);
    const r = await client.send('GET', PATH, { headers: auth(KEYS.viewerW1) });
    client.close();
    return { status: r.status, remaining: Number(r.headers['x-ratelimit-remaining']) };
  };

  it('after SIGTERM and a restart the count continues', async () => {
    const { dir, storePath } = setup();
    let s = await spawnServe(['--store', storePath, '--rate-limit', '20'], { dir });
    const client = keepAliveClient(s.origin, 4);
    for (let i = 0; i < 12; i++) expect((await client.send('GET', PATH, { headers: auth(KEYS.viewerW1) })).status).toBe(200);
    client.close();
    expect((await stopServe(s)).code).toBe(0);
    expect(existsSync(rateLimitFileOf(storePath))).toBe(true);

    s = await spawnServe(['--store', storePath, '--rate-limit', '20'], { dir });
    try {
      const r = await remainingAfterOne(s.origin); // the 13th request of the window
      expect(r).toEqual({ status: 200, remaining: 7 });
      const c2 = keepAliveClient(s.origin, 1);
      for (let i = 0; i < 7; i++) expect((await c2.send('GET', PATH, { headers: auth(KEYS.viewerW1) })).status).toBe(200);
      const over = await c2.send('GET', PATH, { headers: auth(KEYS.viewerW1) });
      c2.close();
      expect(over.status).toBe(429);
      expect(over.headers['retry-after']).toBe('3600');
    } finally {
      expect((await stopServe(s)).code).toBe(0);
    }
  }, 60_000);

  it('after SIGKILL at most the last flush interval (1 s) of counts is forgotten', async () => {
    const { dir, storePath } = setup();
    const LIMIT = 1_000_000;
    let s = await spawnServe(['--store', storePath, '--rate-limit', String(LIMIT)], { dir });
    const client = keepAliveClient(s.origin, 4);
    // A steady stream, recording when each answer arrived, until its 150th answer is 1.2 s old
    // (so more than 100 answers are older than the flush interval however slow the machine;
    // 20 s at most); then SIGKILL with no warning.
    const acked: number[] = [];
    const giveUpAt = performance.now() + 20_000;
    const enough = () => acked.length >= 150 && performance.now() - acked[149]! > 1_200;
    await pool([0, 1, 2, 3], 4, async () => {
      while (!enough() && performance.now() < giveUpAt) {
        const r = await client.send('GET', PATH, { headers: auth(KEYS.viewerW1) });
        if (r.status === 200) acked.push(performance.now());
        await sleep(2);
      }
    });
    const killedAt = performance.now();
    s.kill('SIGKILL');
    await s.exited;
    client.close();
    const olderThanInterval = acked.filter((t) => t < killedAt - 1_000 - 100).length; // 100 ms for the sidecar write itself
    s = await spawnServe(['--store', storePath, '--rate-limit', String(LIMIT)], { dir });
    try {
      const r = await remainingAfterOne(s.origin);
      const remembered = LIMIT - r.remaining - 1;
      console.log(
        `rate limit: ${acked.length} counted before SIGKILL, ${olderThanInterval} of them more than 1.1 s old; ${remembered} remembered after restart (${acked.length - remembered} forgotten)`,
      );
      expect(remembered).toBeGreaterThanOrEqual(olderThanInterval);
      expect(remembered).toBeLessThanOrEqual(acked.length);
      expect(olderThanInterval).toBeGreaterThan(100);
      const sidecar = JSON.parse(readFileSync(rateLimitFileOf(storePath), 'utf8'));
      expect(sidecar.version).toBe(1);
    } finally {
      await stopServe(s);
    }
  }, 60_000);
});
