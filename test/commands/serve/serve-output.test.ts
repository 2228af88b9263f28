import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/serve.js';
import { parseFaults } from '../../../src/server/app/faults.js';
import { runCli } from '../../helpers/run-cli.js';
import { runOnPty } from '../../helpers/pty.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): the store file and journal a failed start must leave no trace of.

afterAll(() => cleanupTempDirs());

/** `cr serve`: what it prints, what it logs, what it leaves (docs/api-decisions.md §7, §9). */
describe('cr serve', () => {
  it('on a port in use: exit 1, and no store file or journal is left behind', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    const dir = tempDir('cr-serve-busy-');
    try {
      const r = await runCli(['serve', '--port', String(port), '--store', join(dir, 'store.json')]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('ADDRESS_IN_USE');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      holder.close();
    }
  });

  it("the log's duration of a request includes the latency injected before it", async () => {
    const lines: string[] = [];
    const server = await startServer({
      storePath: join(tempDir('cr-serve-lat-'), 'store.json'),
      port: 0,
      faults: parseFaults('*:latency=300ms', 1),
      log: (l) => lines.push(l),
    });
    try {
      // A table path, and one only the app answers (a 404): both carriers log.
      await fetch(`${server.url}/api/v1/content/nurture-sequences`);
      await fetch(`${server.url}/api/v1/no-such-path`);
    } finally {
      await server.close();
    }
    const durations = lines.filter((l) => / (GET) /.test(l) && !/ fault /.test(l)).map((l) => Number(/ (\d+)ms\b/.exec(l)?.[1]));
    expect(durations).toHaveLength(2);
    // A lower bound, not a speed: the client waited at least the injected 300 ms.
    for (const ms of durations) expect(ms).toBeGreaterThanOrEqual(300);
  });

  it('at a terminal the URL shows once', async () => {
    const dir = tempDir('cr-serve-pty-');
    const run = runOnPty(['serve', '--port', '0', '--store', join(dir, 'store.json')], { HOME: dir, CR_CONFIG_DIR: dir });
    try {
      await run.waitFor('Ctrl-C to stop');
      const urls = run.screen().match(/http:\/\/127\.0\.0\.1:\d+\/api\/v1/g) ?? [];
      expect(urls).toHaveLength(1);
    } finally {
      run.type('\x03');
      await run.done;
    }
  });
});
