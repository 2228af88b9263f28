import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/cli/help-topics.js';
import { ROOT } from '../helpers/paths.js';

/**
 * The table rule that src/render/table.ts follows and test/e2e/pty-widths.test.ts checks at
 * 60, 80, 100 and 120 columns, stated in the same words in the README, docs/output.md and
 * `cr help formatting` (line breaks and Markdown marks aside).
 */
const RULE =
  'At 80 columns and wider every table keeps its name column (entity, title, client, name) at least 16 columns wide or whole, ' +
  'and the id column gives way first: it shows whole, only from 100 columns and only beside whole names, ' +
  'else it is left out and the table says so; --wide, --json, --jsonl, --csv, TSV when piped and -q carry every id whole. ' +
  'A create or schedule prints its new or changed id whole at any width. ' +
  'Widths are terminal columns, not characters: a CJK character or an emoji takes 2.';

/** One line of plain words: no line breaks, indentation, backticks or bold marks. */
const plain = (text: string) => text.replace(/`|\*\*/g, '').replace(/\s+/g, ' ');

describe('the table rule, in one wording', () => {
  for (const file of ['README.md', 'docs/output.md']) {
    it(`${file} states it`, () => {
      expect(plain(readFileSync(join(ROOT, file), 'utf8'))).toContain(RULE);
    });
  }
  it('cr help formatting states it', () => {
    expect(plain(TOPICS.formatting!)).toContain(RULE);
  });
});
