import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { lockPathOf } from '../../src/server/store/lock.js';
import { formatLogLine } from '../../src/server/serve.js';
import { logSafe } from '../../src/server/log-text.js';
import { KEYS, V, ensureBuilt, fixtureStore, parseRawResponse, rawExchange, spawnServe } from './support.js';

/**
 * The request log of a real `cr serve` (docs/api-decisions.md §9): control characters from the request
 * are escaped (no forged line, no raw escape sequence), and a log reader that goes away never
 * stops the server.
 */
beforeAll(() => ensureBuilt(), 120_000);

let cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => undefined);
  cleanups = [];
});

describe('log injection', () => {
  it('a path with %0a, %1b and %07 (foreign Origin, so refused before any route) is logged escaped on one line', async () => {
    const s = await fixtureStore();
    cleanups.push(s.cleanup);
    const srv = await spawnServe(['--store', s.path], { dir: s.dir });
    try {
      const forged = `${V}/x%0a2026-01-01T00:00:00.000Z%20POST%20/api/v1/content/listeners%20200%201ms%20key=admin%1b%5b2J%07%e2%80%a8end`;
      const refused = parseRawResponse((await rawExchange(srv.port, `GET ${forged} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n`)).text);
      expect(refused.status).toBe(403);
      const ok = parseRawResponse(
        (await rawExchange(srv.port, `GET ${V}/finance/summary%1b HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${KEYS.adminW1}\r\nConnection: close\r\n\r\n`)).text,
      );
      expect(ok.status).toBe(404);
      srv.kill('SIGTERM');
      expect((await srv.exited).code).toBe(0);
      const log = srv.stderr();
      expect(log).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u2028]/);
      const lines = log.split('\n').filter(Boolean);
      const requestLines = lines.filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
      expect(requestLines).toHaveLength(2);
      expect(requestLines[0]).toContain('/x\\x0a2026-01-01T00:00:00.000Z POST /api/v1/content/listeners 200 1ms key=admin\\x1b[2J\\x07\\u2028end 403');
      expect(requestLines[1]).toContain('/finance/summary\\x1b 404');
      expect(lines.some((l) => l.startsWith('2026-01-01T00:00:00.000Z'))).toBe(false);
    } finally {
      srv.kill('SIGKILL');
    }
  }, 30_000);

  it('formatLogLine escapes every value it prints: method, path, key id', () => {
    const line = formatLogLine({ method: 'GET\r\n', path: '/a\\b\u0007\u009b', status: 200, ms: 1, keyId: 'id\n\u001b' }, new Date(0));
    expect(line).toBe('1970-01-01T00:00:00.000Z GET\\x0d\\x0a /a\\\\b\\x07\\x9b 200 1ms key=id\\x0a\\x1b');
  });

  it('bidirectional overrides are escaped in the log as on the terminal (one definition of a control character)', () => {
    // `curl "$URL/x%e2%80%aeRLO"`: a raw U+202E would reorder the rest of the log line on screen.
    const line = formatLogLine({ method: 'GET', path: '/x\u202eRLO\u2066\u2069\u202a\u200f\u061c', status: 404, ms: 1 }, new Date(0));
    expect(line).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200f\u061c]/);
    expect(line).toContain('/x\\u202eRLO\\u2066\\u2069\\u202a\\u200f\\u061c 404');
    // The log's own rules stay: backslash doubled before any escape is added, separators escaped, long values cut.
    expect(logSafe('\\x1b\u001b\u2029')).toBe('\\\\x1b\\x1b\\u2029');
    expect(logSafe('a'.repeat(10), 4)).toBe('aaaa…');
  });
});

describe('a closed standard error', () => {
  it('cr serve keeps answering after its log reader went away (EPIPE), and stops cleanly on SIGTERM', async () => {
    const s = await fixtureStore();
    cleanups.push(s.cleanup);
    const srv = await spawnServe(['--store', s.path], { dir: s.dir });
    try {
      const get = () => fetch(`${srv.baseUrl}/finance/summary`, { headers: { authorization: `Bearer ${KEYS.adminW1}` }, signal: AbortSignal.timeout(5000) });
      expect((await get()).status).toBe(200);
      // The reader goes away, as `cr serve 2>&1 | head -n 2` does after two lines.
      srv.child.stderr!.destroy();
      for (let i = 0; i < 5; i++) {
        expect((await get()).status).toBe(200);
        await new Promise((r) => setTimeout(r, 20));
      }
      const write = await fetch(`${srv.baseUrl}/content/listeners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'after-epipe', source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } }),
        signal: AbortSignal.timeout(5000),
      });
      expect(write.status).toBe(200);
      srv.kill('SIGTERM');
      expect(await srv.exited).toEqual({ code: 0, signal: null });
      expect(existsSync(lockPathOf(s.path))).toBe(false);
    } finally {
      srv.kill('SIGKILL');
    }
  }, 30_000);
});
