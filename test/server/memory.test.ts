import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectLoadGarbage } from '../../src/server/memory.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { afterAll } from 'vitest';

afterAll(() => cleanupTempDirs());

describe('collectLoadGarbage', () => {
  it('collects after loading a store at or above the threshold, and leaves small ones alone', () => {
    const file = join(tempDir('cr-mem-'), 'store.json');
    writeFileSync(file, JSON.stringify({ version: 1, notes: 'x'.repeat(4096) }));
    expect(collectLoadGarbage(file, 1024 * 1024)).toBe(false);
    expect(collectLoadGarbage(file, 1024)).toBe(true);
    expect(collectLoadGarbage(join(file, '..', 'missing.json'), 1)).toBe(false);
  });
});
