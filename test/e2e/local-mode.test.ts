import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * Local mode end to end with the built binary: `cr local init --demo`, `cr serve`, then
 * `cr api` and an area command against it; and `--local` on a machine with nothing yet.
 */
const cleanups = cleanupsAfterAll();
afterAll(() => cleanupTempDirs());

const KEY = /^cr_[0-9a-f]{40}$/;

describe('cr local init --demo → cr serve → cr api /finance/summary', () => {
  it('serves the demo store with the key saved as the profile "local"', async () => {
    const dir = tempDir('cr-e2e-');
    const store = join(dir, 'store.json');
    const cfg = tempDir('cr-e2e-cfg-');
    const init = await runCli(['local', 'init', '--demo', '--store', store], { configDir: cfg });
    expect(init.exitCode).toBe(0);
    const key = init.stdout.trim();
    expect(key).toMatch(KEY);
    expect(readFileSync(store, 'utf8')).not.toContain(key);
    expect(statSync(join(cfg, 'config.json')).mode & 0o777).toBe(0o600);

    const server = execa(process.execPath, [BIN, 'serve', '--store', store, '--port', '0'], {
      cwd: ROOT,
      env: { CR_CONFIG_DIR: cfg, HOME: cfg },
      reject: false,
    });
    cleanups.push(async () => {
      server.kill('SIGTERM');
      await server;
    });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
      });
      server.once('exit', (code) => reject(new Error(`cr serve exited ${code}`)));
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const viaApi = await runCli(['--profile', 'local', '--base-url', baseUrl, 'api', '/finance/summary'], { configDir: cfg });
    expect(viaApi.exitCode).toBe(0);
    const data = JSON.parse(viaApi.stdout) as { summaries: { entity: { name: string } }[]; invoiceAlerts: unknown[] };
    expect(data.summaries.length).toBeGreaterThan(0);
    expect(data.invoiceAlerts.length).toBeGreaterThan(0);

    const viaCommand = await runCli(['--profile', 'local', '--base-url', baseUrl, 'finance', 'summary', '--json'], { configDir: cfg });
    expect(viaCommand.exitCode).toBe(0);
    expect(JSON.parse(viaCommand.stdout)).toEqual(data);
    for (const out of [viaApi.stdout, viaApi.stderr, viaCommand.stdout, viaCommand.stderr]) expect(out).not.toContain(key);

    server.kill('SIGTERM');
    const stopped = await server;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain('GET /api/v1/finance/summary 200');
    expect(stopped.stderr).not.toContain(key);
  });
});

describe('--local on a fresh machine', () => {
  it('creates the default store with demo data, says so on stderr, and answers', async () => {
    const home = tempDir('cr-e2e-home-');
    const store = join(home, '.local', 'share', 'cr', 'store.json');
    const first = await runCli(['finance', 'summary', '--local', '--json'], { configDir: home, env: { HOME: home } });
    expect(first.exitCode).toBe(0);
    expect(existsSync(store)).toBe(true);
    expect(first.stderr).toContain(store);
    const summary = JSON.parse(first.stdout) as { summaries: unknown[] };
    expect(summary.summaries.length).toBeGreaterThan(0);

    const again = await runCli(['finance', 'summary', '--local', '--json'], { configDir: home, env: { HOME: home } });
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(summary);
    expect(again.stderr).not.toContain('created');
  });

  it('never falls back to local mode on its own', async () => {
    const home = tempDir('cr-e2e-home-');
    const r = await runCli(['finance', 'summary'], { configDir: home, env: { HOME: home } });
    expect(r.exitCode).toBe(3);
    expect(existsSync(join(home, '.local', 'share', 'cr', 'store.json'))).toBe(false);
  });
});
