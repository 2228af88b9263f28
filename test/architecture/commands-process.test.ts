import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, importsOf, sourceFiles } from './imports.js';

/**
 * Commands never touch process.* (src/io/streams.ts): they get their streams, env and exit
 * through the context, so tests run them in-process.
 */
describe('commands/ and the process', () => {
  it('no command file reads or writes process.*', () => {
    const files = sourceFiles('commands');
    expect(files.length).toBeGreaterThan(10);
    const touching = files.filter((f) => {
      const code = readFileSync(join(ROOT, f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return /\bprocess\s*\.|\bprocess\s*\[/.test(code) || importsOf(f).some((s) => s === 'process' || s === 'node:process');
    });
    expect(touching, 'command files that use process.* (go through the context)').toEqual([]);
  });
});
