import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';

const h = useHarness();

describe('cr nurture count', () => {
  it('counts what nurture list --all lists, per status; a status with a typo is refused before sending', async () => {
    const all = JSON.parse((await h.cr(['nurture', 'list', '--all', '--json'])).stdout) as { sequences: { status: string }[] };
    const r = await h.cr(['nurture', 'count', '--status', 'active', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ total: all.sequences.filter((s) => s.status === 'active').length });
    h.seen.length = 0;
    const bad = await h.cr(['nurture', 'count', '--status', 'actve']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('did you mean active?');
    expect(h.seen).toEqual([]);
  });
});
