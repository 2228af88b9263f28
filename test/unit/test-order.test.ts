import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { runProcessSync } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * scripts/test-order.mjs turns a run's JSON report (vitest's JSON reporter) into the slowest-first
 * list vitest.config.ts starts with (test/README.md, "Where the time goes"): longest first, a file
 * run by two projects counted by its longest run, at most 30 files.
 */
afterAll(() => cleanupTempDirs());

const SCRIPT = join(ROOT, 'scripts/test-order.mjs');
const run = (...args: string[]) => runProcessSync(process.execPath, [SCRIPT, ...args]);
const result = (file: string, ms: number) => ({ name: join(ROOT, file), startTime: 1_000, endTime: 1_000 + ms, assertionResults: [] });

describe('scripts/test-order.mjs', () => {
  it('lists the slowest files of a report, longest first, each by its longest run, at most 30', () => {
    const dir = tempDir('cr-test-order-');
    const many = Array.from({ length: 40 }, (_, i) => result(`test/unit/f${i}.test.ts`, 100 + i));
    const report = {
      testResults: [result('test/a.test.ts', 5_000), result('test/b.test.ts', 2_000), result('test/b.test.ts', 9_000), ...many],
    };
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    const out = join(dir, 'slowest.json');
    const r = run(join(dir, 'report.json'), out);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const files = (JSON.parse(readFileSync(out, 'utf8')) as { files: { file: string; seconds: number }[] }).files;
    expect(files).toHaveLength(30);
    expect(files.slice(0, 3)).toEqual([
      { file: 'test/b.test.ts', seconds: 9 },
      { file: 'test/a.test.ts', seconds: 5 },
      { file: 'test/unit/f39.test.ts', seconds: 0.1 },
    ]);
  });

  it('refuses what is not a whole run’s report, and writes nothing', () => {
    const dir = tempDir('cr-test-order-');
    const out = join(dir, 'slowest.json');
    expect(run().exitCode).toBe(2);
    writeFileSync(join(dir, 'empty.json'), JSON.stringify({ testResults: [] }));
    writeFileSync(join(dir, 'bad.json'), 'not json');
    for (const f of ['empty.json', 'bad.json', 'missing.json']) {
      const r = run(join(dir, f), out);
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr)).toContain(join(dir, f));
    }
    expect(() => readFileSync(out)).toThrow();
  });
});
