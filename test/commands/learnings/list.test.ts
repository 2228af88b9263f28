import { describe, expect, it } from 'vitest';
import { ANSI, useHarness } from '../../helpers/harness.js';

const h = useHarness();

describe('cr learnings list', () => {
  it('--json equals the API data, with the filters as query parameters', async () => {
    const r = await h.cr(['learnings', 'list', '--type', 'hook', '--limit', '1', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await h.apiData('/intelligence/learnings?dimension_type=hook&limit=1'));
    expect(h.seen.at(-1)!.url).toMatch(/dimension_type=hook/);
  });
  it('shows confidence as a percentage and wraps the summary', async () => {
    const r = await h.cr(['learnings', 'list'], { tty: true, env: { COLUMNS: '80' } });
    expect(r.stdout).toContain('87%');
    expect(r.stdout).toContain('62%');
    expect(r.stdout.split('\n').every((l) => l.replace(new RegExp(ANSI, 'g'), '').length <= 80)).toBe(true);
  });
});
