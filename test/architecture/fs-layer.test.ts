import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './imports.js';

/**
 * Every file the local server touches goes through one injectable layer
 * (src/server/store/fs-layer.ts), so that the disk-fault tests (test/reliability/
 * disk-faults.test.ts) reach all of it: no other server module imports the file system.
 */
const LAYER = 'src/server/store/fs-layer.ts';
const FS_MODULES = new Set(['fs', 'fs/promises', 'node:fs', 'node:fs/promises']);

describe('server file I/O', () => {
  it(`only ${LAYER} imports node:fs`, () => {
    const files = sourceFiles('src/server');
    expect(files).toContain(LAYER);
    const direct = files.filter((f) => f !== LAYER && importsOf(f).some((s) => FS_MODULES.has(s)));
    expect(direct, 'server modules importing the file system directly (use the fs layer)').toEqual([]);
  });

  it('the import scan sees node:fs where it is used', () => {
    expect(importsOf(LAYER)).toEqual(expect.arrayContaining(['node:fs', 'node:fs/promises']));
  });
});
