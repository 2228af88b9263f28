import { describe, expect, it } from 'vitest';
import { budgetOf, inWords, retryWhen } from '../../src/http/rate-budget.js';

/** The rate budget and a 429's wait, read from headers with one clock (src/http/rate-budget.ts). */
const NOW = Date.parse('2026-11-22T10:00:00Z');
const hhmm = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ms));

describe('rate budget headers', () => {
  it('reads limit, remaining and reset; the wait is measured on the server clock (Date header)', () => {
    const skewed = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 1800 + 600), date: new Date(NOW + 600_000).toUTCString() };
    const b = budgetOf(skewed, NOW)!;
    expect(b).toMatchObject({ limit: 10, remaining: 0, resetInMs: 1_800_000 });
    expect(b.resetAt.getTime()).toBe(NOW + 1_800_000); // on the local clock, not the server's
    expect(budgetOf({ 'x-ratelimit-limit': '10' }, NOW)).toBeUndefined();
  });

  it('a 429 names the window reset, else Retry-After (seconds or a date); nothing when neither', () => {
    expect(retryWhen({ 'x-ratelimit-reset': String(NOW / 1000 + 23 * 60), 'retry-after': '3600' }, NOW)).toBe(`${hhmm(NOW + 23 * 60_000)} (in 23 min)`);
    expect(retryWhen({ 'retry-after': '45' }, NOW)).toBe(`${hhmm(NOW + 45_000)} (in 45 s)`);
    expect(retryWhen({ 'retry-after': new Date(NOW + 7_200_000).toUTCString() }, NOW)).toBe(`${hhmm(NOW + 7_200_000)} (in 2 h)`);
    expect(retryWhen({ 'retry-after': String(30 * 3600) }, NOW)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(in 30 h\)$/);
    expect(retryWhen({}, NOW)).toBeUndefined();
  });

  it('a reset or Retry-After more than a week ahead is ignored as if not sent (docs/reliability.md)', () => {
    const week = 7 * 86_400;
    const budget = (reset: number) => budgetOf({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(reset) }, NOW);
    expect(budget(NOW / 1000 + week)?.resetInMs).toBe(week * 1000);
    expect(budget(NOW / 1000 + week + 1)).toBeUndefined();
    expect(budget(99999999999999)).toBeUndefined();
    expect(retryWhen({ 'retry-after': String(week) }, NOW)).toMatch(/\(in 168 h\)$/);
    expect(retryWhen({ 'retry-after': String(week + 1) }, NOW)).toBeUndefined();
    expect(retryWhen({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }, NOW)).toBeUndefined();
    expect(retryWhen({ 'x-ratelimit-reset': '9'.repeat(400), 'retry-after': '45' }, NOW)).toBe(`${hhmm(NOW + 45_000)} (in 45 s)`);
  });

  it('says the wait in words', () => {
    expect([inWords(1), inWords(59_000), inWords(60_000), inWords(3_600_000), inWords(7_200_000)]).toEqual(['in 1 s', 'in 59 s', 'in 1 min', 'in 60 min', 'in 2 h']);
  });
});
