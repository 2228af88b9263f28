import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PKG_VERSION, TEST_BIN } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * The single executable (docs/install.md, "Single executable"; `npm run build:sea` makes dist/sea/cr),
 * when CR_TEST_BIN names it (.ci/run does). It runs from a folder of its own, with no
 * node_modules above it, and with an empty PATH: no Node anywhere. Its output is compared
 * byte for byte with `node bin/cr.js` from this checkout.
 */
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

const NOW = '2026-11-22T09:00:00Z';
let exe: string;

beforeAll(() => {
  if (!TEST_BIN) return;
  exe = join(tempDir('cr-sea-'), 'cr');
  copyFileSync(TEST_BIN, exe);
});

/** A complete environment of its own: an empty PATH, its own HOME and config folder. */
function envFor(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '', HOME: dir, CR_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8', ...extra };
}

const run = (file: string, args: string[], env: Record<string, string>, cwd: string) => spawnProcess(file, args, { cwd, env, timeoutMs: 30_000, execa: { stripFinalNewline: false } });

describe.skipIf(!TEST_BIN)('the single executable (CR_TEST_BIN)', () => {
  it('is not this Node: it answers --version with no PATH at all', async () => {
    const dir = tempDir('cr-sea-run-');
    const r = await run(exe, ['--version'], envFor(dir), dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${PKG_VERSION}\n`);
    expect(r.stderr).toBe('');
  });

  it('prints finance summary --local --json byte for byte as node bin/cr.js does, each on a fresh store', async () => {
    const outputs: string[] = [];
    for (const [file, args, path] of [
      [exe, [], ''],
      [process.execPath, [BIN], '/usr/bin:/bin'],
    ] as const) {
      const dir = tempDir('cr-sea-run-');
      const r = await run(file, [...args, 'finance', 'summary', '--local', '--json'], { ...envFor(dir, { CR_STORE: join(dir, 'store.json'), CR_NOW: NOW }), PATH: path }, dir);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(existsSync(join(dir, 'store.json'))).toBe(true);
      outputs.push(r.stdout);
    }
    expect(JSON.parse(outputs[0]!).summaries.length).toBeGreaterThan(0);
    expect(outputs[0]).toBe(outputs[1]);
  });

  it('runs --jq on the jq it embeds', async () => {
    const dir = tempDir('cr-sea-run-');
    const env = envFor(dir, { CR_STORE: join(dir, 'store.json'), CR_NOW: NOW });
    const r = await run(exe, ['finance', 'summary', '--local', '--jq', '.summaries[].entity.name'], env, dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
    const bad = await run(exe, ['finance', 'summary', '--local', '--jq', '.summaries['], env, dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--jq: /);
  });

  it('serves: cr serve, a command against it, then SIGTERM stops it with exit 0', async () => {
    const dir = tempDir('cr-sea-run-');
    const env = envFor(dir);
    const init = await run(exe, ['local', 'init', '--demo', '--store', join(dir, 'store.json')], env, dir);
    expect(init.exitCode, init.stderr).toBe(0);
    const server = spawnProcess(exe, ['serve', '--store', join(dir, 'store.json'), '--port', '0', '--url-file', join(dir, 'url.txt')], { cwd: dir, env, timeoutMs: 120_000 });
    cleanups.push(async () => {
      server.kill('SIGKILL');
      await server;
    });
    const waited = await run(exe, ['local', 'wait', '--url-file', join(dir, 'url.txt'), '--timeout', '20'], env, dir);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const url = waited.stdout.trim();
    const summary = await run(exe, ['--profile', 'local', '--base-url', url, 'finance', 'summary', '--json'], env, dir);
    expect(summary.exitCode, summary.stderr).toBe(0);
    expect(JSON.parse(summary.stdout).summaries.length).toBeGreaterThan(0);
    server.kill('SIGTERM');
    const done = await server;
    expect(done.exitCode).toBe(0);
    expect(String(done.stderr)).toMatch(/GET \/api\/v1\/finance\/summary 200/);
  });

  it('cr version --json: a single executable on this platform, started from its embedded code cache', async () => {
    const dir = tempDir('cr-sea-run-');
    const r = await run(exe, ['version', '--json'], envFor(dir), dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      version: PKG_VERSION,
      platform: process.platform,
      arch: process.arch,
      singleExecutable: true,
      startupCache: { kind: 'v8-code-cache', inUse: true, status: 'accepted', location: 'embedded asset cli.js.cache' },
    });
  });
});
