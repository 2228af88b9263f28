import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, NODE, ROOT, runBin } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * Local mode end to end with the built binary (the README quick start): `cr local init
 * --demo`, `cr serve`, then `cr api` and an area command against it.
 */
const cleanups = cleanupsAfterAll();
afterAll(() => cleanupTempDirs());

const KEY = /^cr_[0-9a-f]{40}$/;

describe('cr local init --demo → cr serve → cr api /finance/summary', () => {
  it('serves the demo store with the key saved as the profile "local"', async () => {
    const dir = tempDir('cr-e2e-');
    const store = join(dir, 'store.json');
    const cfg = tempDir('cr-e2e-cfg-');
    const init = await runBin(['local', 'init', '--demo', '--store', store], { configDir: cfg });
    expect(init.exitCode).toBe(0);
    const key = init.stdout.trim();
    expect(key).toMatch(KEY);
    expect(readFileSync(store, 'utf8')).not.toContain(key);
    expect(statSync(join(cfg, 'config.json')).mode & 0o777).toBe(0o600);

    const server = execa(NODE, [BIN, 'serve', '--store', store, '--port', '0'], {
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

    const viaApi = await runBin(['--profile', 'local', '--base-url', baseUrl, 'api', '/finance/summary'], { configDir: cfg });
    expect(viaApi.exitCode).toBe(0);
    const data = JSON.parse(viaApi.stdout) as { summaries: { entity: { name: string } }[]; invoiceAlerts: unknown[] };
    expect(data.summaries.length).toBeGreaterThan(0);
    expect(data.invoiceAlerts.length).toBeGreaterThan(0);

    const viaCommand = await runBin(['--profile', 'local', '--base-url', baseUrl, 'finance', 'summary', '--json'], { configDir: cfg });
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
