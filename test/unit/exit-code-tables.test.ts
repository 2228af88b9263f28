import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, EXIT, exitCodeOf } from '../../src/errors.js';
import { EXIT_BAD_STORE } from '../../src/local/errors.js';
import { TOPICS } from '../../src/cli/help-topics.js';
import { ROOT } from '../helpers/paths.js';

/**
 * Every exit-code table (docs/exit-codes.md, docs/cli-contract.md §5, `cr help exit-codes`)
 * lists exactly the codes the CLI exits with, and names under exit 6 exactly the HTTP statuses
 * that `exitCodeOf` maps to 6.
 */
const CODES = [...new Set([...Object.values(EXIT), EXIT_BAD_STORE])].sort((a, b) => a - b);
const INVALID = Array.from({ length: 200 }, (_, i) => 400 + i).filter((s) => exitCodeOf(new ApiError(s, 'x', 'GET', 'http://h/')) === EXIT.invalid);

/** The rows of the first Markdown table after `heading`: exit code → meaning. */
function markdownRows(file: string, heading: string): Map<number, string> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const at = text.indexOf(heading);
  expect(at, `${file}: ${heading}`).toBeGreaterThanOrEqual(0);
  const rows = new Map<number, string>();
  for (const line of text.slice(at).split('\n').slice(1)) {
    const m = /^\| (\d+) \| (.*) \|$/.exec(line);
    if (m) rows.set(Number(m[1]), m[2]!);
    else if (rows.size > 0 && !line.startsWith('|')) break;
  }
  return rows;
}

function helpRows(): Map<number, string> {
  const rows = new Map<number, string>();
  for (const m of TOPICS['exit-codes']!.matchAll(/^ {2}(\d+) +(.*)$/gm)) rows.set(Number(m[1]), m[2]!);
  return rows;
}

const tables: [string, () => Map<number, string>][] = [
  ['docs/exit-codes.md', () => markdownRows('docs/exit-codes.md', '# Exit codes')],
  ['docs/cli-contract.md §5', () => markdownRows('docs/cli-contract.md', '## 5. Errors and exit codes')],
  ['cr help exit-codes', helpRows],
];

describe('exit-code tables', () => {
  it('the CLI exits with 0-8, 78 and 130', () => {
    expect(CODES).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 78, 130]);
    expect(INVALID).toEqual([400, 409, 413, 415, 422]);
  });

  it.each(tables)('%s lists every code, and the statuses of exit 6', (_name, rows) => {
    const table = rows();
    expect([...table.keys()].sort((a, b) => a - b)).toEqual(CODES);
    const six = table.get(EXIT.invalid)!;
    expect(INVALID.filter((s) => !six.includes(String(s)))).toEqual([]);
  });
});
