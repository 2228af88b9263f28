import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { AT, cliAt, csvPlan, ids, jsonLines, PUBLISHED, startBulkServer } from './support.js';
import { annotation, escapeData, escapeProperty, stepSummary } from '../../src/bulk/report-github.js';
import { junitXml, xml } from '../../src/bulk/report-junit.js';
import type { RowResult } from '../../src/bulk/types.js';

afterAll(() => cleanupTempDirs());

/** A workflow command line as GitHub parses it: ::name key=value,key=value::data. */
const COMMAND = /^::error (file=[^,:]+,)?line=\d+,title=[^,:]+::[^\r\n]*$/;

const failedRow = (error: string): RowResult => ({
  row: { line: 7, id: 'a:b,c', at: AT, when: new Date(AT), wire: AT },
  status: 'failed',
  error,
  code: 'X',
  exit: 6,
});

describe('GitHub annotations, step summary and JUnit, from a real run', () => {
  it('GITHUB_ACTIONS=true: one ::error per failed row on stdout (stderr with --json), a markdown table in $GITHUB_STEP_SUMMARY, --junit XML', async () => {
    const srv = await startBulkServer(3);
    try {
      const dir = tempDir('cr-bulk-');
      const file = csvPlan(dir, [...ids(3), PUBLISHED]);
      const summary = join(dir, 'summary.md');
      writeFileSync(summary, '# earlier step\n');
      const junit = join(dir, 'report.xml');
      const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
      const r = await cliAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--junit', junit], { env });
      expect(r.exitCode).toBe(6);
      const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
      expect(commands).toHaveLength(1);
      expect(commands[0]).toMatch(COMMAND);
      expect(commands[0]).toMatch(new RegExp(`^::error file=${file.replace(/[/.]/g, '\\$&')},line=5,`));
      expect(commands[0]).toContain('INVALID_STATE');
      // The failed row is in the log once, as its annotation: not also a row of the table.
      expect(r.stdout.split('\n').filter((l) => l.includes(PUBLISHED))).toEqual([commands[0]]);
      expect(r.stdout.split('\n').filter((l) => /\tscheduled\t/.test(l))).toHaveLength(3);

      const md = readFileSync(summary, 'utf8');
      expect(md.startsWith('# earlier step\n')).toBe(true);
      expect(md).toContain('3 scheduled, 0 skipped, 1 failed, 0 not sent');
      const table = md.split('\n').filter((l) => l.startsWith('|'));
      expect(table[0]).toBe('| Line | ID | At | Status | Detail |');
      expect(table.slice(2)).toHaveLength(4);
      expect(table.every((l) => l.split(/(?<!\\)\|/).length === 7)).toBe(true);

      const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
      const suite = doc.testsuites.testsuite;
      expect([suite.tests, suite.failures, suite.skipped, suite.errors]).toEqual(['4', '1', '0', '0']);
      expect(suite.testcase).toHaveLength(4);
      const failed = suite.testcase.filter((c: Record<string, unknown>) => c.failure);
      expect(failed).toHaveLength(1);
      expect(failed[0].line).toBe('5');
      expect(failed[0].failure.message).toContain('only draft or scheduled posts can be scheduled (INVALID_STATE)');

      const j = await cliAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--json'], { env });
      expect(j.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
      expect(jsonLines(j.stdout)).toHaveLength(4);
      expect(j.stderr.split('\n').filter((l) => l.startsWith('::error '))).toHaveLength(1);

      const off = await cliAt(srv.baseUrl, ['posts', 'schedule', '--from', file], { env: { GITHUB_ACTIONS: undefined } });
      expect(off.stdout).not.toContain('::error');
    } finally {
      await srv.close();
    }
  });
});

describe('escaping of CI outputs', () => {
  it('workflow commands: data escapes % CR LF; properties also : and ,', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
    const line = annotation('dir/my,plan:1.csv', failedRow('bad\nthing 100%\u001b[31m'));
    expect(line).toBe('::error file=dir/my%2Cplan%3A1.csv,line=7,title=cr posts schedule%3A a%3Ab%2Cc::a:b,c: bad\\x0athing 100%25\\x1b[31m (X)');
    expect(line).toMatch(COMMAND);
    // A path holding control characters: escaped in file= as in the message, no raw ESC.
    const esc = annotation('dir/\u001b[31mplan\r.csv', failedRow('x'));
    expect(esc).toMatch(/^::error file=dir\/\\x1b\[31mplan\\x0d\.csv,line=7,/);
    expect(esc).not.toMatch(/[\u0000-\u001f]/);
  });

  it('step summary cells cannot break the table or carry HTML', () => {
    const md = stepSummary('p|<b>.csv', [failedRow('x | <script>y</script>\n')], { scheduled: 0, skipped: 0, failed: 1, not_sent: 0 });
    const row = md.split('\n').find((l) => l.startsWith('| 7 '))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
    expect(row).not.toContain('<script>');
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('JUnit: XML-escaped, control characters shown as \\xNN, parses back to the same text', () => {
    expect(xml(`<a & "b" 'c'>\u001b`)).toBe('&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;\\x1b');
    const text = junitXml('f.csv', [failedRow(`<&>"' \u0007 end`)], { scheduled: 0, skipped: 0, failed: 1, not_sent: 0 }, 1.5);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text);
    expect(doc.testsuites.testsuite.testcase.failure.message).toBe(`<&>"' \\x07 end (X)`);
  });

  it('JUnit: characters XML 1.0 forbids (U+FFFE, U+FFFF, lone surrogates) never reach the report', () => {
    expect(xml('a\uFFFFb\uD800c\uDC00d\u{1F600}')).toBe('a\\uffffb\\ud800c\\udc00d\u{1F600}');
    const text = junitXml('p\uFFFEq.csv', [failedRow('bad \uD83D end')], { scheduled: 0, skipped: 0, failed: 1, not_sent: 0 }, 1.5);
    // XML 1.0 Char: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF.
    expect(text).toMatch(/^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u);
    expect(text).toContain('name="p\\ufffeq.csv"');
  });

  it('25 failed rows in Actions: a summary annotation first, the first 20 rows annotated, then how many more', async () => {
    const srv = await startBulkServer(0);
    try {
      const dir = tempDir('cr-bulk-');
      // Posts the store does not have: each row is a 404.
      const file = csvPlan(dir, ids(25));
      const r = await cliAt(srv.baseUrl, ['posts', 'schedule', '--from', file], { env: { GITHUB_ACTIONS: 'true' } });
      expect(r.exitCode).not.toBe(0);
      const lines = r.stdout.split('\n').filter((l) => l.startsWith('::') || l.includes('more failed row'));
      expect(lines[0]).toMatch(/^::error file=[^,]+,title=cr posts schedule::25 rows of .* failed; the first 20 are annotated, every row is in the step summary$/);
      for (const a of lines.slice(1, 21)) expect(a).toMatch(COMMAND);
      expect(lines.slice(1, 21).map((a) => /line=(\d+)/.exec(a)![1])).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 2)));
      expect(lines[21]).toBe(`${file}: and 5 more failed rows`);
      expect(lines).toHaveLength(22);
    } finally {
      await srv.close();
    }
  });
});
