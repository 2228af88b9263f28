import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin, spawnBin } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * `cr mcp stdio --local` holds the store for the agent's whole session: it advertises its
 * loopback listener beside the store, so other `--local` runs send to it and `cr local`
 * commands that must write are refused at once, naming it (docs/cli-contract.md §7.4, §7.5).
 */
const UNKNOWN_WEBSITE = '00000000-0000-4000-8000-000000000000'; // a well-formed id the store does not have
afterAll(() => cleanupTempDirs());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cr mcp stdio --local beside other local commands', () => {
  it('other --local runs go to its listener; a writing cr local command goes through it', async () => {
    const home = tempDir('cr-stdio-shared-');
    const env = { HOME: home, CR_CONFIG_DIR: join(home, 'cfg'), XDG_DATA_HOME: join(home, 'share'), NO_COLOR: '1' };
    const store = join(home, 'share', 'cr', 'store.json');
    const agent = spawnBin(['mcp', 'stdio', '--local'], { configDir: home, env, stdin: 'pipe', timeoutMs: 60_000 });
    try {
      for (let i = 0; i < 300 && !existsSync(`${store}.serve.json`); i++) await sleep(50);
      const ad = JSON.parse(readFileSync(`${store}.serve.json`, 'utf8')) as { pid: number; port: number; label: string };
      expect(ad).toMatchObject({ pid: agent.pid, label: 'cr mcp stdio --local' });

      const run = await runBin(['--local', 'brand', 'subjects', '--json'], { env, configDir: home, timeoutMs: 30_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain(`sending to cr mcp stdio --local on port ${ad.port} (pid ${agent.pid})`);
      expect(JSON.parse(run.stdout)).toBeTruthy();

      // Local administration goes through the listener that holds the store (docs/commands.md "cr local"):
      // the agent's server answers it, so its own validation speaks, at once.
      const keys = await runBin(['local', 'keys', 'create', '--role', 'viewer', '--website', UNKNOWN_WEBSITE], { env, configDir: home, timeoutMs: 30_000 });
      expect(keys.exitCode, keys.stderr).toBe(2);
      expect(keys.stderr).toContain(`Unknown website ${UNKNOWN_WEBSITE}`);
    } finally {
      agent.stdin!.end();
    }
    const done = await agent;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(existsSync(`${store}.serve.json`)).toBe(false); // removed on the way out
  }, 90_000);
});
