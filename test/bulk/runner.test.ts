import { describe, expect, it } from 'vitest';
import { runRows } from '../../src/bulk/runner.js';
import type { SendOutcome } from '../../src/bulk/send.js';
import type { PlanRow } from '../../src/bulk/types.js';
import { exitOf } from '../../src/bulk/outcome.js';

const rows = (n: number): PlanRow[] => Array.from({ length: n }, (_, i) => ({ line: i + 2, id: `id-${i + 1}`, at: 'x', when: new Date(0), wire: 'x' }));

/**
 * A limiter like the server's (docs/api-decisions.md §3) on a fake clock: `limit` requests per
 * window, X-RateLimit-* on every answer, 429 past the budget. It records the most
 * requests it ever had in flight at once.
 */
function fakeServer(limit: number, clock: { t: number }, windowMs = 10_000) {
  let start = clock.t;
  let count = 0;
  let inFlight = 0;
  const seen = { sent: 0, limited: 0, maxInFlight: 0 };
  const send = async (): Promise<SendOutcome> => {
    inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight--;
    if (clock.t >= start + windowMs) {
      start = clock.t;
      count = 0;
    }
    count++;
    seen.sent++;
    const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - count)), 'x-ratelimit-reset': String(Math.ceil((start + windowMs) / 1000)) };
    if (count > limit) {
      seen.limited++;
      return { ok: false, status: 429, headers: { ...headers, 'retry-after': '3600' }, error: 'Rate limit exceeded', code: 'RATE_LIMITED', exit: 7 };
    }
    return { ok: true, status: 200, headers, scheduledAt: 'x' };
  };
  return { send, seen };
}

describe('runRows inside the rate budget', () => {
  it('sends exactly the budget, never more than --concurrency at once, and leaves the rest not_sent (exit 7)', async () => {
    const clock = { t: 1_000_000 };
    const srv = fakeServer(50, clock);
    const out = await runRows({ rows: rows(80), concurrency: 8, wait: false, send: srv.send, signal: new AbortController().signal, now: () => clock.t, onResult: async () => {} });
    expect(srv.seen.sent).toBe(50);
    expect(srv.seen.limited).toBe(0);
    expect(srv.seen.maxInFlight).toBeLessThanOrEqual(8);
    expect(out.results.filter((r) => r.status === 'scheduled')).toHaveLength(50);
    expect(out.results.filter((r) => r.status === 'not_sent')).toHaveLength(30);
    expect(out.stop).toBe('rate_limit');
    expect(exitOf(out.results, out.stop)).toBe(7);
  });

  it('with --wait, waits for the advertised reset and goes on; nothing is ever refused', async () => {
    const clock = { t: 1_000_000 };
    const srv = fakeServer(30, clock);
    const waits: number[] = [];
    const out = await runRows({
      rows: rows(100),
      concurrency: 4,
      wait: true,
      send: srv.send,
      signal: new AbortController().signal,
      now: () => clock.t,
      sleep: async (ms) => {
        waits.push(ms);
        clock.t += ms;
      },
      onResult: async () => {},
    });
    expect(out.results.every((r) => r.status === 'scheduled')).toBe(true);
    expect(srv.seen.sent).toBe(100);
    expect(srv.seen.limited).toBe(0);
    expect(waits).toHaveLength(3);
  });

  it('a 429 from elsewhere (another client on the key) stops new sends; with --wait the row is sent after the reset', async () => {
    const clock = { t: 0 };
    let calls = 0;
    const send = async (): Promise<SendOutcome> => {
      calls++;
      if (calls === 3) return { ok: false, status: 429, headers: { 'retry-after': '5' }, error: 'Rate limit exceeded', code: 'RATE_LIMITED', exit: 7 };
      return { ok: true, status: 200, headers: {}, scheduledAt: 'x' };
    };
    const noWait = await runRows({ rows: rows(6), concurrency: 1, wait: false, send, signal: new AbortController().signal, now: () => clock.t, onResult: async () => {} });
    // Without headers the budget is unlimited until the 429 empties it.
    expect(noWait.results.map((r) => r.status).sort()).toEqual(['not_sent', 'not_sent', 'not_sent', 'not_sent', 'scheduled', 'scheduled']);
    expect(exitOf(noWait.results, noWait.stop)).toBe(7);
    calls = 0;
    const slept: number[] = [];
    const withWait = await runRows({
      rows: rows(6),
      concurrency: 1,
      wait: true,
      send,
      signal: new AbortController().signal,
      now: () => clock.t,
      sleep: async (ms) => void slept.push(ms),
      onResult: async () => {},
    });
    expect(withWait.results.every((r) => r.status === 'scheduled')).toBe(true);
    expect(slept).toEqual([5250]);
  });

  it('Ctrl-C: no new sends; in-flight rows past the grace are not_sent; exit 130', async () => {
    const ac = new AbortController();
    let started = 0;
    const send = (): Promise<SendOutcome> => {
      started++;
      if (started === 5) setTimeout(() => ac.abort(), 5);
      return new Promise((r) => setTimeout(() => r({ ok: true, status: 200, headers: {}, scheduledAt: 'x' }), started >= 5 ? 10_000 : 1));
    };
    const out = await runRows({ rows: rows(20), concurrency: 1, wait: false, send, signal: ac.signal, graceMs: 20, onResult: async () => {} });
    expect(started).toBe(5);
    expect(out.stop).toBe('interrupted');
    expect(out.results.filter((r) => r.status === 'scheduled')).toHaveLength(4);
    expect(out.results.filter((r) => r.status === 'not_sent')).toHaveLength(16);
    expect(exitOf(out.results, out.stop)).toBe(130);
  });
});
