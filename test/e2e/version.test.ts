import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { NODE, PKG_VERSION, ROOT, runBin, TEST_BIN } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * `cr version` from the built launcher (or CR_TEST_BIN): the build's constants and the
 * launcher's start-up cache record reach it (docs/commands.md "cr version"); and how the build
 * finds the commit and date it writes in (scripts/build-meta.mjs).
 */
afterAll(() => cleanupTempDirs());

const PATH = '/usr/local/bin:/usr/bin:/bin';
const git = (args: string[], cwd: string, home: string) =>
  spawnProcess('git', ['-c', 'user.name=cr', '-c', 'user.email=cr@example.com', ...args], { cwd, env: { PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });

/** Calls an export of scripts/build-meta.mjs in a Node of its own, with a complete environment. */
async function buildMeta(call: string, env: Record<string, string> = {}): Promise<string> {
  const code = `import * as m from ${JSON.stringify(join(ROOT, 'scripts', 'build-meta.mjs'))}; console.log(${call});`;
  const r = await spawnProcess(process.execPath, ['--input-type=module', '-e', code], { env: { PATH, HOME: tempDir('cr-meta-home-'), ...env } });
  return r.stdout.trim();
}

describe('cr version from the built cr', () => {
  it('--version is one line; version --json carries the build and the launcher record', async () => {
    const one = await runBin(['--version']);
    expect(one.stdout).toBe(`${PKG_VERSION}\n`);
    const r = await runBin(['version', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ version: PKG_VERSION, platform: process.platform, arch: process.arch, singleExecutable: Boolean(TEST_BIN) });
    expect(info.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    expect(info.buildDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The Node that ran it: this one, unless CR_TEST_NODE or CR_TEST_BIN names another.
    expect(info.node).toMatch(/^v\d+\.\d+\.\d+$/);
    if (!TEST_BIN && NODE === process.execPath) expect(info.node).toBe(process.version);
    // The launcher recorded the cache it started from (src/startup/run-bundle.ts, src/startup/sea-main.ts).
    expect(info.startupCache.kind).not.toBe('none');
    expect(info.startupCache.inUse).toBe(info.startupCache.status === 'accepted');
    expect(['accepted', 'rejected', 'missing']).toContain(info.startupCache.status);
  });
});

describe('the commit and date the build writes in (scripts/build-meta.mjs)', () => {
  it("this checkout's HEAD when it is a git work tree of its own", async () => {
    const home = tempDir('cr-meta-home-');
    const head = await git(['rev-parse', 'HEAD'], ROOT, home).catch(() => undefined);
    const expected = head && realpathSync((await git(['rev-parse', '--show-toplevel'], ROOT, home)).stdout.trim()) === realpathSync(ROOT) ? head.stdout.trim() : 'unknown';
    expect(await buildMeta('m.commit()')).toBe(expected);
  });

  it("unknown inside another project's repository (a package in its node_modules) and outside git", async () => {
    const home = tempDir('cr-meta-home-');
    const repo = tempDir('cr-meta-repo-');
    await git(['init', '-q'], repo, home);
    await git(['commit', '-q', '--allow-empty', '-m', 'x'], repo, home);
    const inner = join(repo, 'node_modules', 'cr-cli');
    mkdirSync(inner, { recursive: true });
    const head = (await git(['rev-parse', 'HEAD'], repo, home)).stdout.trim();
    expect(await buildMeta(`m.commit(${JSON.stringify(repo)})`)).toBe(head);
    expect(await buildMeta(`m.commit(${JSON.stringify(inner)})`)).toBe('unknown');
    expect(await buildMeta(`m.commit(${JSON.stringify(tempDir('cr-meta-nogit-'))})`)).toBe('unknown');
  });

  it('SOURCE_DATE_EPOCH fixes the build date; without it, the time of the build to the second', async () => {
    expect(await buildMeta('m.buildDate()', { SOURCE_DATE_EPOCH: '1700000000' })).toBe('2023-11-14T22:13:20Z');
    expect(await buildMeta('m.buildDate()')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
