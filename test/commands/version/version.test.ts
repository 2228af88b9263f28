import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { PKG_VERSION } from '../../helpers/cli.js';
import { cleanupTempDirs } from '../../helpers/tmp.js';
import { setStartupCache } from '../../../src/startup/startup-cache.js';

/**
 * `cr version` (docs/commands.md "cr version") from the sources: no build constants and no
 * launcher, so the commit and date are `unknown` and no start-up cache is in use; a launcher's
 * record (src/startup/startup-cache.ts) is what it reports.
 */
afterAll(() => cleanupTempDirs());
// The in-process project shares one module graph and globalThis between files: leave no record behind.
afterEach(() => void delete (globalThis as Record<string, unknown>).__crStartupCache);

describe('cr version', () => {
  it('--json: version, commit, build date, Node, platform and the start-up cache', async () => {
    const r = await runCli(['version', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      version: PKG_VERSION,
      commit: 'unknown',
      buildDate: 'unknown',
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      singleExecutable: false,
      startupCache: { kind: 'none', inUse: false, status: 'no launcher' },
    });
  });

  it('reports what the launcher recorded: on a terminal aligned, piped as key<TAB>value', async () => {
    setStartupCache({ kind: 'v8-code-cache', inUse: true, status: 'accepted', location: '/opt/cr/dist/bundle/cli.js.cache' });
    const tty = await runCli(['version'], { tty: true });
    expect(tty.exitCode, tty.stderr).toBe(0);
    expect(tty.stdout).toContain(`version        : ${PKG_VERSION}\n`);
    expect(tty.stdout).toContain(`node           : ${process.version}\n`);
    expect(tty.stdout).toContain(`platform       : ${process.platform}-${process.arch}\n`);
    expect(tty.stdout).toContain('start-up cache : in use (v8-code-cache, accepted, /opt/cr/dist/bundle/cli.js.cache)\n');
    const piped = await runCli(['version']);
    expect(
      piped.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['version', 'commit', 'built', 'node', 'platform', 'start-up cache']);
    expect(piped.stdout).toContain('start-up cache\tin use (v8-code-cache, accepted, /opt/cr/dist/bundle/cli.js.cache)\n');
  });

  it('a rejected cache is not in use; a location with control characters is shown escaped', async () => {
    setStartupCache({ kind: 'v8-code-cache', inUse: false, status: 'rejected', location: '/tmp/\u001b[31mevil/cli.js.cache' });
    const r = await runCli(['version']);
    expect(r.stdout).toContain('start-up cache\tnot in use (v8-code-cache, rejected, /tmp/\\x1b[31mevil/cli.js.cache)\n');
    expect(r.stdout).not.toContain('\u001b');
    const json = JSON.parse((await runCli(['version', '--json'])).stdout);
    expect(json.startupCache).toEqual({ kind: 'v8-code-cache', inUse: false, status: 'rejected', location: '/tmp/\u001b[31mevil/cli.js.cache' });
  });

  it('--jq filters the same data; --csv does not apply (exit 2)', async () => {
    const jq = await runCli(['version', '--jq', '.version']);
    expect(jq.exitCode, jq.stderr).toBe(0);
    expect(jq.stdout).toBe(`${PKG_VERSION}\n`);
    const csv = await runCli(['version', '--csv']);
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toMatch(/--csv does not apply to `cr version`/);
  });

  it('--jq keeps to --timeout like every other command (exit 8, nothing printed)', async () => {
    const r = await runCli(['version', '--timeout', '1', '--jq', 'last(range(infinite))']);
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--timeout 1 s ran out');
  }, 20_000);

  it('--version stays the version alone, on one line; `cr --help` lists the command', async () => {
    expect((await runCli(['--version'])).stdout).toBe(`${PKG_VERSION}\n`);
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}version +Version, commit, build date, Node and start-up cache\n/);
  });
});
