import { afterAll, describe, expect, it } from 'vitest';
import { runRows } from '../../src/bulk/runner.js';
import type { SendOutcome } from '../../src/bulk/send.js';
import type { PlanRow } from '../../src/bulk/types.js';
import { RateBudget } from '../../src/bulk/budget.js';
import { parseFaults } from '../../src/server/app/faults.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { AT, ids, KEYS, startBulkServer } from './support.js';

/**
 * docs/cli-contract.md "For CI jobs": once a 429 arrives no new send starts until the wait is
 * over, even when sends still in flight answer 200 with a later X-RateLimit-Reset afterwards.
 */
afterAll(() => cleanupTempDirs());

const T = Date.parse('2026-11-22T10:00:00Z');
const headers = (remaining: number, resetInS: number, extra: Record<string, string> = {}) => ({
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(T / 1000 + resetInS),
  ...extra,
});

describe('RateBudget after a 429', () => {
  it('a 200 answered after it, naming a later window, does not reopen the budget; the wait does', () => {
    const b = new RateBudget();
    b.observe(headers(990, 3600), 200, T);
    b.observe(headers(0, 2, { 'retry-after': '2' }), 429, T + 10);
    b.observe(headers(985, 3600), 200, T + 20);
    expect(b.canStart(0)).toBe(false);
    expect(b.resetAt()).toBe(T + 2000);
    b.windowReset();
    expect(b.canStart(0)).toBe(true);
    b.observe(headers(984, 3600), 200, T + 2100);
    expect(b.canStart(3)).toBe(true);
  });
});

describe('runRows against the local server injecting 429s (--concurrency 8, --wait)', () => {
  it('starts no send between a 429 and the end of its wait', async () => {
    const plan = ids(24);
    // Every answer is delayed a little, differently, so 200s of sends in flight come after a 429.
    const srv = await startBulkServer(24, { faults: parseFaults('scheduleSocialPost:status=429,rate=0.3,retry_after=2;scheduleSocialPost:latency=5ms,jitter=40ms', 3) });
    const events: string[] = [];
    const send = async (row: PlanRow): Promise<SendOutcome> => {
      events.push('start');
      const res = await fetch(`${srv.baseUrl}/social/posts/${row.id}/schedule`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.editor}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scheduled_at: row.wire }),
      });
      await res.arrayBuffer();
      events.push(`answer ${res.status}`);
      const h = Object.fromEntries(res.headers.entries());
      return res.ok
        ? { ok: true, status: res.status, headers: h, scheduledAt: row.wire }
        : { ok: false, status: res.status, headers: h, error: 'refused', code: `HTTP_${res.status}`, exit: res.status === 429 ? 7 : 1 };
    };
    try {
      const rows: PlanRow[] = plan.map((id, i) => ({ line: i + 2, id, at: AT, when: new Date(AT), wire: AT }));
      const out = await runRows({
        rows,
        concurrency: 8,
        wait: true,
        send,
        signal: new AbortController().signal,
        onResult: async () => {},
        // The wait itself is not what is tested: it ends at once, and says so.
        sleep: async () => void events.push('waited'),
      });
      expect(out.results.filter((r) => r.status === 'scheduled')).toHaveLength(24);
      const limited = events.filter((e) => e === 'answer 429').length;
      expect(limited).toBeGreaterThan(0);
      // Between each 429 and the next end of a wait: no start.
      let refused = false;
      for (const e of events) {
        if (e === 'answer 429') refused = true;
        else if (e === 'waited') refused = false;
        else if (e === 'start') expect(refused, events.join(', ')).toBe(false);
      }
    } finally {
      await srv.close();
    }
  }, 60_000);
});
