import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './imports.js';

// Small files with one job (CONTRIBUTING.md): no source file over 400 lines, except the files
// generated from the endpoint table (src/api/generated/, npm run build).
const LIMIT = 400;
const GENERATED = 'src/api/generated/';

describe('file size', () => {
  it(`no source file in src/ or commands/ is over ${LIMIT} lines (generated files aside)`, () => {
    const over = sourceFiles('src', 'commands')
      .filter((f) => !f.startsWith(GENERATED))
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > LIMIT)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(over).toEqual([]);
  });
});
