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

  it('unknown post → exit 5; viewer key → exit 4', async () => {
    const r = await h.cr(['posts', 'schedule', POST_MISSING, '--at', '+1h']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/^error: Not found/);
    const v = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1h'], { key: KEYS.viewer });
    expect(v.exitCode).toBe(4);
    expect(v.stderr).toContain('Insufficient role');
  });
});
