import { describe, expect, it } from 'vitest';
import { dateColumn } from '../../src/render/dates.js';

/** docs/cli-contract.md "At a terminal": a time that has happened never reads "in …". */
describe('hints of past instants', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const when = { now, timeZone: 'UTC' };
  const row = { at: '2026-11-22T10:00:00.700Z' };

  it('a creation stamped just after the clock it is compared with says "just now"', () => {
    const col = dateColumn('CREATED', (r: typeof row) => r.at, when, { time: true, past: true });
    expect(col.value(row)).toBe('2026-11-22 10:00 UTC (just now)');
  });

  it('a creation minutes ahead of a lagging clock still never points ahead', () => {
    const col = dateColumn('CREATED', (r: { at: string }) => r.at, when, { time: true, past: true });
    expect(col.value({ at: '2026-11-22T10:05:00Z' })).not.toMatch(/\(in /);
  });

  it('a future instant (a schedule) keeps its "in …" hint', () => {
    const col = dateColumn('SCHEDULED', (r: { at: string }) => r.at, when, { time: true });
    expect(col.value({ at: '2026-11-22T12:00:00Z' })).toBe('2026-11-22 12:00 UTC (in 2 hours)');
  });
});
