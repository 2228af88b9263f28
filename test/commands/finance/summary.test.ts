import { describe, expect, it } from 'vitest';
import { ANSI, useHarness } from '../../helpers/harness.js';

const h = useHarness();

describe('cr finance summary', () => {
  it('--json prints the API data exactly', async () => {
    const r = await h.cr(['finance', 'summary', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await h.apiData('/finance/summary'));
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
    // Dates piped are the API's plain ISO values, no relative hint.
    // Amounts piped are plain decimals beside their currency, for sums (docs/cli-contract.md "For scripts").
    expect(lines.find((l) => l.includes('Globex'))!.split('\t')).toEqual(['invoice', 'rr-1', 'Globex', 'Acme Studio', 'USD', '12345.67', '2026-11-20', 'OVERDUE']);
    for (const l of lines) expect(l).not.toMatch(/[$€]|\d,\d{3}/);
  });
});
