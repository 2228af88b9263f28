import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { writeCsv } from '../../../src/render/csv.js';
import { testIO } from '../../helpers/io.js';
import { useHarness } from '../../helpers/harness.js';

const h = useHarness();

/** Parses --csv output as RFC 4180 (strict about quotes and record lengths) into objects by header. */
const records = (text: string) => parse(text, { columns: true, relax_quotes: false, relax_column_count: false }) as Record<string, string>[];

describe('--csv', () => {
  it('RFC 4180: CRLF records, quoted commas, quotes and line breaks, empty for null', async () => {
    const io = testIO();
    await writeCsv(io, {
      header: ['A', 'B'],
      rows: [
        ['x,y', 'say "hi"'],
        ['two\nlines', null],
        ['lone\rCR', true],
      ],
    });
    expect(io.stdout()).toBe('A,B\r\n"x,y","say ""hi"""\r\n"two\nlines",\r\n"lone\rCR",true\r\n');
    expect(parse(io.stdout(), { columns: true })).toEqual([
      { A: 'x,y', B: 'say "hi"' },
      { A: 'two\nlines', B: '' },
      { A: 'lone\rCR', B: 'true' },
    ]);
  });

  it('at a terminal: control characters in cells are escaped, the CRLF record ends are not', async () => {
    const io = testIO({ tty: true });
    await writeCsv(io, { header: ['A', 'B'], rows: [['red\x1b[31m', 'cr\rhere']] });
    expect(io.stdout()).toBe('A,B\r\nred\\x1b[31m,cr\\x0dhere\r\n');
  });

  it('nurture list: the table columns with full values (ISO dates, no ellipsis), parsed back equal to --json', async () => {
    const json = JSON.parse((await h.cr(['nurture', 'list', '--limit', '30', '--json'])).stdout) as { sequences: Record<string, unknown>[] };
    const r = await h.cr(['nurture', 'list', '--limit', '30', '--csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    // Headed by the JSON field names (docs/cli-contract.md "For scripts").
    expect(r.stdout.split('\r\n')[0]).toBe('contentId,title,status,stepCount,updatedAt');
    expect(records(r.stdout)).toEqual(json.sequences.map((s) => ({ contentId: s.contentId, title: s.title, status: s.status, stepCount: String(s.stepCount), updatedAt: s.updatedAt })));
  });

  it('crm agents: the whole prompt, line break and commas included, survives a round trip', async () => {
    const json = JSON.parse((await h.cr(['crm', 'agents', '--json'])).stdout) as { agents: { id: string; activePromptVersion: { promptText: string } | null }[] };
    const rows = records((await h.cr(['crm', 'agents', '--csv'])).stdout);
    expect(rows.map((r) => [r.id, r['activePromptVersion.promptText']])).toEqual(json.agents.map((a) => [a.id, a.activePromptVersion?.promptText ?? '']));
    expect(rows[0]!['activePromptVersion.promptText']).toContain('\n');
  });

  it('learnings list: confidence as the API number, summaries whole', async () => {
    const json = JSON.parse((await h.cr(['learnings', 'list', '--json'])).stdout) as { learnings: { id: string; confidenceScore: number; summary: string }[] };
    const rows = records((await h.cr(['learnings', 'list', '--csv'])).stdout);
    expect(rows.map((r) => [r.id, Number(r.confidenceScore), r.summary])).toEqual(json.learnings.map((l) => [l.id, l.confidenceScore, l.summary]));
  });

  it('finance summary: entity rows only, the JSON fields exactly (amounts in cents) beside a currency column, no totals', async () => {
    const json = JSON.parse((await h.cr(['finance', 'summary', '--json'])).stdout) as {
      summaries: { entity: { name: string }; activeMrr: number; monthlyCostCents: number; monthlyAiCostCents: number; nextRenewalDate: string | null }[];
    };
    const r = await h.cr(['finance', 'summary', '--csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = records(r.stdout);
    expect(Object.keys(rows[0]!)).toEqual(['entity.id', 'entity.name', 'currency', 'activeMrr', 'activeClientCount', 'nextRenewalDate', 'monthlyCostCents', 'monthlyAiCostCents']);
    expect(rows.map((r) => r['entity.name'])).toEqual(json.summaries.map((s) => s.entity.name));
    expect(rows.map((r) => r.currency)).toEqual(['USD', 'EUR']);
    for (const [i, s] of json.summaries.entries()) {
      expect(Number(rows[i]!.activeMrr)).toBe(s.activeMrr);
      expect(Number(rows[i]!.monthlyCostCents)).toBe(s.monthlyCostCents);
      expect(Number(rows[i]!.monthlyAiCostCents)).toBe(s.monthlyAiCostCents);
      expect(rows[i]!.nextRenewalDate).toBe(s.nextRenewalDate ?? '');
    }
    expect(r.stdout).not.toMatch(/TOTAL|\$|€/);
  });

  it('visibility grid: one row per grid point, an empty rank when not ranking', async () => {
    const rows = records((await h.cr(['visibility', 'grid', '--csv'])).stdout);
    expect(rows).toHaveLength(162);
    expect(Object.keys(rows[0]!)).toEqual(['keyword', 'row', 'col', 'lat', 'lng', 'rank']);
    expect(rows.filter((r) => r.keyword === 'emergency plumber').every((r) => r.rank === '')).toBe(true);
  });

  it("profiles list: the JSON field names, active as true/false instead of the table's star", async () => {
    const r = await h.cr(['profiles', 'list', '--csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('name,active,baseUrl,key\r\n');
  });

  it('refused where there are no rows, and beside --json', async () => {
    const a = await h.cr(['auth', 'status', '--csv']);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('--csv does not apply to `cr auth status`; it takes --jq');
    const b = await h.cr(['nurture', 'list', '--csv', '--json']);
    expect(b.exitCode).toBe(2);
  });
});
