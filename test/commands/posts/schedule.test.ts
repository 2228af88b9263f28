import { beforeEach, describe, expect, it } from 'vitest';
import { ANSI, useHarness } from '../../helpers/harness.js';
import { KEYS, POST_DRAFT, POST_MISSING } from '../../helpers/fixture-store.js';

const h = useHarness();
beforeEach(() => {
  h.seen.length = 0;
});

describe('cr posts schedule', () => {
  it('schedules at a relative time from CR_NOW and prints id, status, time', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+2h', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: POST_DRAFT, status: 'scheduled', scheduledAt: '2026-11-22T12:00:00.000Z' });
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ scheduled_at: '2026-11-22T12:00:00.000Z' });
    const t = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23T09:30:00+01:00'], { tty: true });
    expect(t.exitCode).toBe(0);
    expect(t.stdout).toContain('2026-11-23 08:30 UTC (in 23 hours)');
    const p = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1d']);
    expect(p.stdout).not.toMatch(ANSI);
    expect(p.stdout.trimEnd().split('\t').slice(0, 2)).toEqual([POST_DRAFT, 'scheduled']);
  });

  it('an absolute --at is sent as written (the post holds the requested time); +2h as UTC', async () => {
    h.seen.length = 0;
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23T09:30:00+01:00', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ scheduled_at: '2026-11-23T09:30:00+01:00' });
    expect(JSON.parse(r.stdout)).toMatchObject({ scheduledAt: '2026-11-23T09:30:00+01:00' });
    // A looser spelling the API would refuse is sent as the parsed instant.
    const loose = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23 09:30Z', '--dry-run', '--json']);
    expect(JSON.parse(loose.stdout).body).toEqual({ scheduled_at: '2026-11-23T09:30:00.000Z' });
  });

  it('refuses a past time before sending (exit 2)', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-22T09:00:00Z']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/in the past/);
    expect(h.seen).toHaveLength(0);
  });

  it.each([
    ['2027-02-30T09:00:00Z', /February 2027 has 28 days/],
    ['2028-04-31T09:00:00+02:00', /April 2028 has 30 days/],
    ['2027-01-01T24:00:00Z', /time of day/],
    ['+1000000d', /more than 10 years ahead; schedule at most \+3650d/],
    ['+99999999999999999999d', /more than 10 years ahead/],
    ['2037-01-01T00:00:00Z', /more than 10 years ahead/],
  ])('--at %s is a usage error (exit 2), the same with --dry-run, nothing sent', async (at, message) => {
    for (const extra of [[], ['--dry-run']]) {
      const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', at, ...extra]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('INTERNAL');
      expect(r.stdout).toBe('');
    }
    expect(h.seen).toHaveLength(0);
  });

  it('up to +3650d is accepted', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+3650d', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).body).toEqual({ scheduled_at: '2036-11-19T10:00:00.000Z' });
  });

  it('unknown post → exit 5; viewer key → exit 4', async () => {
    const r = await h.cr(['posts', 'schedule', POST_MISSING, '--at', '+1h']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/^error: Not found/);
    const v = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1h'], { key: KEYS.viewer });
    expect(v.exitCode).toBe(4);
    expect(v.stderr).toContain('Insufficient role');
  });
});
