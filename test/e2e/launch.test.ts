import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG_VERSION, ROOT, NODE, runBin } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/**
 * A copy of the installed layout without node_modules (bin/, dist/bundle/, package.json):
 * the bundle must carry every dependency it runs, and the cache can be damaged freely.
 */
function installedCopy(): string {
  const dir = tempDir('cr-launch-');
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'bundle'), join(dir, 'dist', 'bundle'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

const runCopy = (dir: string, args: string[]) =>
  spawnProcess(NODE, [join(dir, 'bin', 'cr.js'), ...args], {
    cwd: dir,
    env: { HOME: dir, CR_CONFIG_DIR: join(dir, 'config'), CR_STARTUP_DEBUG: '1', NO_COLOR: '1' },
  });

/** The cache file a run started from, as CR_STARTUP_DEBUG names it. */
const cacheFileOf = (stderr: string) => /^cr: code cache \w+ \((.*)\)$/m.exec(stderr)?.[1] ?? stderr;

describe('launcher and code cache', () => {
  it("the build made a code cache that V8 accepts on the builder's Node; on another line the first run makes one", async () => {
    // The suite builds dist/ with the Node it runs on; CR_NODE may name another line.
    const onBuilder = NODE === process.execPath;
    const configDir = tempDir('cr-cfg-');
    const first = await runBin(['profiles', 'list', '-q'], { env: { CR_STARTUP_DEBUG: '1' }, configDir });
    expect(first.exitCode).toBe(0);
    if (onBuilder) expect(first.stderr).toMatch(/^cr: code cache accepted \(.*dist\/bundle\/cli\.js\.cache\)\n$/);
    else expect(first.stderr).toMatch(/^cr: code cache missing \(.*\/\.cache\/cr\/v8\/cli-[0-9a-f]{16}-v[\d.]+-\w+-[0-9a-f]{8}\.cache\)\n$/);
    const r = await runBin(['version'], { env: { CR_STARTUP_DEBUG: '1' }, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(`cr: code cache accepted (${cacheFileOf(first.stderr)})\n`);
    expect(r.stdout).toContain('start-up cache\tin use');
  });

  it('the bundle is plain ASCII (the launcher reads it as latin1)', () => {
    const bytes = readFileSync(join(ROOT, 'dist', 'bundle', 'cli.js'));
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
  });

  it('runs without node_modules, and with a damaged or missing cache, with the same output', async () => {
    const dir = installedCopy();
    // Twice: on a Node other than the builder's, the first run makes the (per-user) cache.
    await runCopy(dir, ['profiles', 'list', '--json']);
    const good = await runCopy(dir, ['profiles', 'list', '--json']);
    expect(good.exitCode).toBe(0);
    expect(good.stderr).toContain('code cache accepted');

    const cache = cacheFileOf(good.stderr);
    const damaged = readFileSync(cache);
    damaged.fill(0x5a, 16, 4096);
    writeFileSync(cache, damaged);
    const rejected = await runCopy(dir, ['profiles', 'list', '--json']);
    expect(rejected.exitCode).toBe(0);
    expect(rejected.stderr).toContain('code cache rejected');
    expect(rejected.stdout).toBe(good.stdout);

    rmSync(cache);
    const missing = await runCopy(dir, ['profiles', 'list', '--json']);
    expect(missing.exitCode).toBe(0);
    expect(missing.stderr).toContain('code cache missing');
    expect(missing.stdout).toBe(good.stdout);
  });

  it('--version answers without the bundle; a missing bundle is a clear error', async () => {
    const dir = installedCopy();
    rmSync(join(dir, 'dist', 'bundle', 'cli.js'));
    const v = await runCopy(dir, ['--version']);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toBe(PKG_VERSION);
    const r = await runCopy(dir, ['profiles', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^cr: .*dist\/bundle\/cli\.js is missing; run `npm run build`$/);
  });
});
