import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';

const h = useHarness();

type Seq = { contentId: string };
const jsonl = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Seq);

describe('cr nurture list --jsonl', () => {
  it('one item a line, each exactly the item --json prints', async () => {
    const json = JSON.parse((await h.cr(['nurture', 'list', '--limit', '25', '--json'])).stdout) as { sequences: Seq[] };
    const r = await h.cr(['nurture', 'list', '--limit', '25', '--jsonl']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonl(r.stdout)).toEqual(json.sequences);
  });

  it('--all walks the pages and prints every item once, in order', async () => {
    h.seen.length = 0;
    const all = JSON.parse((await h.cr(['nurture', 'list', '--all', '--json'])).stdout) as { sequences: Seq[] };
    const r = await h.cr(['nurture', 'list', '--all', '--limit', '100', '--jsonl']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonl(r.stdout)).toEqual(all.sequences);
    expect(h.seen.filter((s) => s.url.includes('limit=100'))).toHaveLength(5);
  });

  it('--all --csv writes one header, then every page', async () => {
    const r = await h.cr(['nurture', 'list', '--all', '--csv']);
    const records = r.stdout.split('\r\n').filter(Boolean);
    expect(records[0]).toBe('contentId,title,status,stepCount,updatedAt');
    expect(records).toHaveLength(451);
  });

  it('one page of more, piped as --csv or --jsonl, says so on stderr (nothing dropped silently)', async () => {
    for (const flag of ['--csv', '--jsonl']) {
      const r = await h.cr(['nurture', 'list', '--limit', '25', flag]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe('showing 25 of 450; --all for every page\n');
    }
    const quiet = await h.cr(['nurture', 'list', '--limit', '25', '-q']);
    expect(quiet.stderr).toBe('');
  });

  it('an empty list prints nothing (exit 0)', async () => {
    const r = await h.cr(['nurture', 'list', '--offset', '10000', '--jsonl']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('not on commands that print no list', async () => {
    const r = await h.cr(['finance', 'summary', '--jsonl']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--jsonl does not apply to `cr finance summary`; it takes --jq, --csv');
  });
});
