import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * Local mode end to end with the built binary (the README quick start): `cr local init
 * --demo`, `cr serve`, then `cr api` and an area command against it.
 */
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

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

    // The real clock (no CR_NOW), as a user's `cr serve` runs.
    const server = await spawnServe(['--store', store], { dir: cfg, env: { CR_CONFIG_DIR: cfg, CR_NOW: undefined } });
    cleanups.push(server.stop);
    const { baseUrl } = server;
    expect(server.stdout().split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const viaApi = await runBin(['--profile', 'local', '--base-url', baseUrl, 'api', '/finance/summary'], { configDir: cfg });
    expect(viaApi.exitCode).toBe(0);
    const data = JSON.parse(viaApi.stdout) as { summaries: { entity: { name: string } }[]; invoiceAlerts: unknown[] };
    expect(data.summaries.length).toBeGreaterThan(0);
    expect(data.invoiceAlerts.length).toBeGreaterThan(0);

    const viaCommand = await runBin(['--profile', 'local', '--base-url', baseUrl, 'finance', 'summary', '--json'], { configDir: cfg });
    expect(viaCommand.exitCode).toBe(0);
    expect(JSON.parse(viaCommand.stdout)).toEqual(data);
    for (const out of [viaApi.stdout, viaApi.stderr, viaCommand.stdout, viaCommand.stderr]) expect(out).not.toContain(key);

    expect((await server.stop()).code).toBe(0);
    expect(server.stderr()).toContain('GET /api/v1/finance/summary 200');
    expect(server.stderr()).not.toContain(key);
  });
});
