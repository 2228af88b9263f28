import { describe, expect, it } from 'vitest';
import { ANSI, useHarness } from './harness.js';
import { KEYS, SITE } from './fixture.js';

const h = useHarness();

const json = (stdout: string) => JSON.parse(stdout) as unknown;

describe('cr finance summary', () => {
  it('--json prints the API data exactly', async () => {
    const r = await h.cr(['finance', 'summary', '--json']);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual(await h.apiData('/finance/summary'));
    expect(r.stdout).toMatch(/^\{\n {2}"summaries"/);
  });

  it('piped: plain TSV, unless FORCE_COLOR asks for colour (the same cells, styled)', async () => {
    const plain = await h.cr(['finance', 'summary']);
    expect(plain.stdout).not.toMatch(ANSI);
    const forced = await h.cr(['finance', 'summary'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(ANSI);
    expect(forced.stdout.replace(new RegExp(ANSI.source, 'g'), '')).toBe(plain.stdout);
  });

  it('draws entities in their currency, totals per currency and the overdue invoice', async () => {
    const r = await h.cr(['finance', 'summary'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('$13,344.67'); // Acme MRR: 12,345.67 + 999.00
    expect(r.stdout).toContain('$10,224.67'); // margin = MRR − 3,120.00
    expect(r.stdout).toContain('€5,000.00'); // Berlin: its records are in EUR
    expect(r.stdout).toContain('-€2,000.00');
    expect(r.stdout).toContain('TOTAL (USD)');
    expect(r.stdout).toContain('2026-11-20 (2 days ago)');
    expect(r.stdout).toMatch(/\u001b\[31m[^\n]*OVERDUE/); // red
    expect(r.stdout).toContain('2026-12-01 (in 9 days)');
  });

  it('piped: TSV with a kind column, no ANSI, no header', async () => {
    const r = await h.cr(['finance', 'summary']);
    expect(r.stdout).not.toMatch(ANSI);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('entity\t'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('invoice\t'))).toHaveLength(3);
    expect(lines.find((l) => l.includes('Globex'))!.split('\t')).toEqual(['invoice', 'Globex', 'Acme Studio', '$12,345.67', '2026-11-20 (2 days ago)', 'OVERDUE']);
  });
});

describe('cr learnings list', () => {
  it('--json equals the API data, with the filters as query parameters', async () => {
    const r = await h.cr(['learnings', 'list', '--type', 'hook', '--limit', '1', '--json']);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual(await h.apiData('/intelligence/learnings?dimension_type=hook&limit=1'));
    expect(h.seen.at(-1)!.url).toMatch(/dimension_type=hook/);
  });
  it('shows confidence as a percentage and wraps the summary', async () => {
    const r = await h.cr(['learnings', 'list'], { tty: true, env: { COLUMNS: '80' } });
    expect(r.stdout).toContain('87%');
    expect(r.stdout).toContain('62%');
    expect(r.stdout.split('\n').every((l) => l.replace(new RegExp(ANSI, 'g'), '').length <= 80)).toBe(true);
  });
});

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
    const pages = await Promise.all([0, 200, 400].map((o) => h.apiData(`/content/nurture-sequences?limit=200&offset=${o}`))) as { sequences: unknown[] }[];
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
});

describe('cr visibility grid', () => {
  it('--json equals the API data', async () => {
    const r = await h.cr(['visibility', 'grid', '--json']);
    expect(json(r.stdout)).toEqual(await h.apiData('/gbp/visibility'));
  });
  it('draws a heat map with the centre, legend, scan date, average and top-3 share', async () => {
    const r = await h.cr(['visibility', 'grid', '--keyword', 'plumber near me'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('plumber near me');
    expect(r.stdout).not.toContain('emergency plumber');
    expect(r.stdout).toContain('[ 2]');
    expect(r.stdout).toContain('scan 2026-11-20 (2 days ago)');
    expect(r.stdout).toMatch(/average rank \d+\.\d/);
    expect(r.stdout).toMatch(/top 3 at \d+% of points/);
    expect(r.stdout).toContain('not ranking');
    expect(r.stdout).toContain('\u001b[42m'); // green band
  });
  it('piped: one TSV row per grid point, north-west first', async () => {
    const r = await h.cr(['visibility', 'grid']);
    expect(r.stdout).not.toMatch(ANSI);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(162);
    expect(rows[0]).toEqual(['plumber near me', '1', '1', '40.8', '-74.3', '1']);
    expect(rows[40]).toEqual(['plumber near me', '5', '5', expect.any(String), expect.any(String), '2']);
    expect(rows[81]![5]).toBe(''); // not ranking
  });
});

describe('cr brand subjects / cr crm agents', () => {
  it('brand: --json equals the API data; table has image count and primary URL', async () => {
    const r = await h.cr(['brand', 'subjects', '--json']);
    expect(json(r.stdout)).toEqual(await h.apiData('/brand/brand-subjects'));
    const t = await h.cr(['brand', 'subjects']);
    expect(t.stdout.trimEnd().split('\t')).toEqual(['Maxi', 'mascot', 'active', '2', 'https://cdn.example.com/maxi-front.png', 'bs-1']);
  });
  it('crm: --json equals the API data; table shows the active version and a one-line preview', async () => {
    const r = await h.cr(['crm', 'agents', '--json']);
    expect(json(r.stdout)).toEqual(await h.apiData('/integrations/crm/agents'));
    const t = await h.cr(['crm', 'agents'], { tty: true });
    expect(t.stdout).toContain('v3');
    expect(t.stdout).toContain('You are a friendly sales assistant. Qualify');
  });
});

describe('empty lists are success', () => {
  const empty = { key: KEYS.empty };
  it.each([
    [['brand', 'subjects'], []],
    [['crm', 'agents'], { agents: [] }],
    [['nurture', 'list'], { sequences: [], total: 0, limit: 50, offset: 0 }],
    [['visibility', 'grid'], { keywords: [], scanDate: null }],
    [['finance', 'summary'], { summaries: [], invoiceAlerts: [] }],
  ])('%j --json', async (args, expected) => {
    const r = await h.cr([...args, '--json'], empty);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    const piped = await h.cr(args, empty);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe('');
  });
  it('a terminal says so', async () => {
    expect((await h.cr(['nurture', 'list'], { ...empty, tty: true })).stdout).toContain('No nurture sequences.');
    expect((await h.cr(['visibility', 'grid'], { ...empty, tty: true })).stdout).toContain('No visibility data (no scan yet).');
    expect((await h.cr(['finance', 'summary'], { ...empty, tty: true })).stdout).toContain('No business entities.');
  });
  it('--website is sent as website_id on reads', async () => {
    const r = await h.cr(['brand', 'subjects', '--website', SITE]);
    expect(r.exitCode).toBe(0);
    expect(h.seen.at(-1)!.url).toContain(`website_id=${SITE}`);
  });
});
