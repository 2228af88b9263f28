import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { spawnProcess } from '../helpers/process.js';

/**
 * `npm run build:sea`'s failures (docs/install.md, "Single executable"): scripts/build-sea.mjs run in a
 * copy of this checkout's build (dist/bundle, the sources it bundles, scripts/, and a
 * node_modules of links into this one's), so nothing of the real dist/ is touched. A failure
 * says why in one line, exits 1 and leaves no dist/sea/cr, which before postject runs is a plain
 * copy of Node. The successful build is .ci/run's (it builds dist/sea/cr and tests it).
 */
afterAll(() => cleanupTempDirs());

/** A checkout with the built bundle; node_modules links every package of this one's but `leaveOut`. */
function checkout(leaveOut: string[] = []): string {
  const dir = tempDir('cr-build-sea-');
  for (const part of ['package.json', 'scripts', 'src', 'commands', 'dist/bundle']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!leaveOut.includes(name)) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  }
  return dir;
}

const buildSea = (cwd: string) => spawnProcess(process.execPath, ['scripts/build-sea.mjs'], { cwd, env: { HOME: cwd }, timeoutMs: 120_000 });

describe('npm run build:sea when it cannot build', () => {
  it('refuses a dist/bundle built by another Node, whose code caches the executable would reject', async () => {
    const dir = checkout();
    const launcher = join(dir, 'dist', 'bundle', 'launch.cjs');
    const builder = `${process.version}-${process.arch}`;
    const text = readFileSync(launcher, 'utf8');
    expect(text).toContain(`"${builder}"`);
    writeFileSync(launcher, text.replace(`"${builder}"`, `"v19.0.0-${process.arch}"`));
    const r = await buildSea(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`dist/bundle was built with Node v19.0.0-${process.arch}, not this Node (${builder})`);
    expect(r.stderr).toContain('npm run build:sea');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'dist', 'sea', 'cr'))).toBe(false);
  });

  it('says postject is missing, before it copies Node into dist/sea/cr', async () => {
    const dir = checkout(['postject']);
    const r = await buildSea(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('postject is not installed');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'dist', 'sea', 'cr'))).toBe(false);
  });
});
