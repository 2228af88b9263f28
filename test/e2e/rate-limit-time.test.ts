import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { startServer } from '../../src/server/serve.js';

/**
 * A 429 names the reset as a clock time in the local time zone: a real process, because the
 * time zone (TZ) is the process's. Kathmandu (UTC+05:45) is never mistaken for UTC.
 */
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

describe('429 message', () => {
  it('says `retry after HH:MM (in N min)` in TZ, from the window reset', async () => {
    const dir = tempDir('cr-429-');
    const store = join(dir, 'store.json');
    const init = await runBin(['local', 'init', '--store', store, '--demo'], { configDir: dir });
    expect(init.exitCode).toBe(0);
    const key = init.stdout.trim();
    const server = await startServer({ storePath: store, port: 0, rateLimit: 1, log: false });
    cleanups.push(() => server.close());
    const base = `${server.url}/api/v1`;
    const first = await fetch(`${base}/finance/summary`, { headers: { authorization: `Bearer ${key}` } });
    await first.body?.cancel();
    const reset = new Date(Number(first.headers.get('x-ratelimit-reset')) * 1000);

    const r = await runBin(['finance', 'summary'], { configDir: dir, env: { CR_API_KEY: key, CR_BASE_URL: base, TZ: 'Asia/Kathmandu' } });
    expect(r.exitCode).toBe(7);
    const local = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Asia/Kathmandu' }).format(reset);
    expect(r.stderr).toContain(`retry after ${local} (in 60 min)`);
    expect(r.stderr).not.toContain(key);
  });
});
