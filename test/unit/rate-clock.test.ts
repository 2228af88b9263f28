import { describe, expect, it } from 'vitest';
import { retryAfterMsOf } from '../../src/http/rate-budget.js';
import { RateBudget } from '../../src/bulk/budget.js';
import { ApiError } from '../../src/errors.js';
import { httpFailureOf } from '../../src/mcp-bridge/failures.js';

/**
 * Rate-limit headers read against a server clock far from the local one (its `Date` header):
 * every wait is measured on the server's clock and placed on the local one
 * (docs/cli-contract.md "At a terminal"), so a server whose clock is years ahead, or at the
 * last date JavaScript can hold, neither crashes a reader nor makes it wait for years.
 */
const NOW = Date.parse('2026-11-22T10:00:00Z');
const limited = (serverNow: number, resetIn: number) => ({
  date: new Date(serverNow).toUTCString(),
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': String(Math.floor((serverNow + resetIn) / 1000)),
});
const LAST_DATE = 8.64e15; // Sat, 13 Sep 275760 00:00:00 GMT
const YEAR_9999 = Date.parse('9999-12-31T23:59:00Z');

describe('rate-limit headers against a skewed server clock', () => {
  it('bulk budget: a 429 whose reset is 60 s ahead of the server clock waits about 60 s on the local clock', () => {
    for (const serverNow of [YEAR_9999, LAST_DATE, NOW + 86_400_000, NOW - 86_400_000 * 365]) {
      const b = new RateBudget();
      b.observe(limited(serverNow, 60_000), 429, NOW);
      const wait = b.resetAt()! - NOW;
      expect(wait).toBeGreaterThanOrEqual(59_000);
      expect(wait).toBeLessThanOrEqual(61_000);
    }
  });

  it('bulk budget: a 200 with the budget spent names the reset on the local clock', () => {
    const b = new RateBudget();
    b.observe(limited(YEAR_9999, 120_000), 200, NOW);
    expect(b.exhausted()).toBe(true);
    expect(b.resetAt()! - NOW).toBeLessThanOrEqual(121_000);
    expect(b.resetAt()! - NOW).toBeGreaterThanOrEqual(119_000);
  });

  it('MCP bridge: a 429 from such a server says a wait of about 60 s and a local time, never "Invalid time value"', async () => {
    for (const serverNow of [YEAR_9999, LAST_DATE]) {
      const res = new Response(JSON.stringify({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }), {
        status: 429,
        headers: limited(serverNow, 60_000),
      });
      const f = await httpFailureOf(res, NOW);
      expect(f.retryAfterSeconds).toBeGreaterThanOrEqual(59);
      expect(f.retryAfterSeconds).toBeLessThanOrEqual(61);
      expect(Date.parse(f.retryAt!) - NOW).toBeLessThanOrEqual(61_000);
    }
  });

  it('Retry-After that is neither delay-seconds nor an HTTP date is ignored, as if not sent', () => {
    for (const v of ['-1', ' -5', '+5', '1.5', '1e3', '0x10', 'NaN', '10 apples']) expect(retryAfterMsOf({ 'retry-after': v }, NOW), v).toBeUndefined();
    expect(retryAfterMsOf({ 'retry-after': '5' }, NOW)).toBe(5000);
    expect(retryAfterMsOf({ 'retry-after': new Date(NOW + 90_000).toUTCString() }, NOW)).toBe(90_000);
    expect(retryAfterMsOf({ 'retry-after': 'Sunday, 22-Nov-26 10:01:00 GMT' }, NOW)).toBe(60_000);
    expect(retryAfterMsOf({ 'retry-after': 'Sun Nov 22 10:01:00 2026' }, NOW)).toBeDefined();
  });

  it('a 429 whose Retry-After could not be placed says "a while", never the header text', () => {
    for (const v of ['1e400', 'NaN', '-1', 'Fri, 31 Dec 9999 23:59:59 GMT'])
      expect(ApiError.from(429, { error: 'Rate limit exceeded' }, 'GET', 'http://127.0.0.1/x', v).message, v).toContain('retry after a while');
    expect(ApiError.from(429, { error: 'Rate limit exceeded' }, 'GET', 'http://127.0.0.1/x', '90').message).toContain('retry after 2 minutes');
  });
});
