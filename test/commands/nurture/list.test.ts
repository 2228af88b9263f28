import { describe, expect, it } from 'vitest';
import { ANSI, useHarness } from '../../helpers/harness.js';

const h = useHarness();

const json = (stdout: string) => JSON.parse(stdout) as unknown;

describe('cr nurture list', () => {
  it('one page by default, with a footer on a terminal', async () => {
    const r = await h.cr(['nurture', 'list', '--offset', '440', '--limit', '20'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('showing 441-450 of 450');
    const piped = await h.cr(['nurture', 'list']);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(50);
    expect(piped.stdout).not.toMatch(ANSI);
  });

  it('--all walks 450 sequences in 3 requests of 200 and prints {sequences, total}', async () => {
    h.seen.length = 0;
    const r = await h.cr(['nurture', 'list', '--all', '--json']);
    expect(r.exitCode).toBe(0);
    const out = json(r.stdout) as { sequences: { contentId: string }[]; total: number };
    expect(out.total).toBe(450);
    expect(out.sequences).toHaveLength(450);
    expect(new Set(out.sequences.map((s) => s.contentId)).size).toBe(450);
    const calls = h.seen.filter((s) => s.url.includes('/content/nurture-sequences'));
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.url.includes('limit=200'))).toBe(true);
    const pages = (await Promise.all([0, 200, 400].map((o) => h.apiData(`/content/nurture-sequences?limit=200&offset=${o}`)))) as { sequences: unknown[] }[];
    expect(out.sequences).toEqual(pages.flatMap((p) => p.sequences));
  });

  it('--all honours --limit as the page size and --offset as the start', async () => {
    h.seen.length = 0;
    const r = await h.cr(['nurture', 'list', '--all', '--limit', '100', '--offset', '250', '--json']);
    expect(r.exitCode).toBe(0);
    const out = json(r.stdout) as { sequences: { contentId: string }[]; total: number };
    expect(out.total).toBe(450);
    const calls = h.seen.filter((s) => s.url.includes('/content/nurture-sequences'));
    expect(calls.map((c) => new URL(c.url, 'http://x').searchParams.get('offset'))).toEqual(['250', '350', '450'].slice(0, calls.length));
    expect(calls.every((c) => c.url.includes('limit=100'))).toBe(true);
    const tail = (await h.apiData('/content/nurture-sequences?limit=200&offset=250')) as { sequences: unknown[] };
    expect(out.sequences).toEqual(tail.sequences);
  });

  it('--all piped prints every row', async () => {
    const r = await h.cr(['nurture', 'list', '--all']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(450);
  });

  it('piped, one page of a longer list says so on stderr; the last page and --all do not', async () => {
    const page = await h.cr(['nurture', 'list']);
    expect(page.stdout.trimEnd().split('\n')).toHaveLength(50);
    expect(page.stderr).toBe('showing 50 of 450; --all for every page\n');
    const last = await h.cr(['nurture', 'list', '--offset', '440']);
    expect(last.stderr).toBe('');
    const all = await h.cr(['nurture', 'list', '--all']);
    expect(all.stderr).toBe('');
  });

  it('piped dates are the plain ISO values, no relative hint', async () => {
    const r = await h.cr(['nurture', 'list', '--limit', '1']);
    expect(r.stdout).toBe('seq-000\tSequence 0\tactive\t0\t2026-11-22T10:00:00.000Z\n');
  });
});
