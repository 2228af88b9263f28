import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { initStore } from '../../src/server/ops/init-store.js';
import { runBin } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { NOW } from '../helpers/fixture-store.js';

/**
 * `--all` at a terminal goes through the pager (docs/output.md "Paging"), as gh does; never
 * when piped. On a real pseudo-terminal: whether stdout is one decides it. The pager is a
 * `sed` that marks each line it passes, so the screen shows which lines went through it.
 */
let server: Awaited<ReturnType<typeof startServer>>;
let key: string;

beforeAll(async () => {
  const store = join(tempDir('cr-pager-'), 'store.json');
  key = (await initStore(store, { demo: true, clock: fixedClock(NOW) })).key;
  server = await startServer({ storePath: store, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
});
afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});

const MARK = "sed 's/^/PAGED: /'";

/** `cr nurture list ARGS` on a pseudo-terminal against the test server, with a config folder of its own. */
function listOnPty(args: string[], env: Record<string, string>) {
  const dir = tempDir('cr-pager-cfg-');
  return runOnPty(['nurture', 'list', ...args], {
    HOME: dir,
    CR_CONFIG_DIR: dir,
    CI: '1',
    NO_COLOR: '1',
    CR_NOW: NOW,
    CR_BASE_URL: `${server.url}/api/v1`,
    CR_API_KEY: key,
    ...env,
  });
}

async function onTerminal(args: string[], env: Record<string, string>) {
  const run = listOnPty(args, env);
  try {
    const { exitCode } = await run.done;
    return { exitCode, screen: run.screen().replace(/\r/g, '') };
  } finally {
    run.kill();
  }
}

describe('cr nurture list --all and the pager', () => {
  it('at a terminal: every line through CR_PAGER (before PAGER); --no-pager prints directly', async () => {
    const r = await onTerminal(['--all'], { CR_PAGER: MARK, PAGER: 'false' });
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toMatch(/^PAGED: (ID +)?TITLE +STATUS/m);
    expect(r.screen).toContain('PAGED: showing 1-120 of 120');
    const direct = await onTerminal(['--all', '--no-pager'], { CR_PAGER: MARK });
    expect(direct.exitCode, direct.screen).toBe(0);
    expect(direct.screen).toMatch(/^(ID +)?TITLE +STATUS/m);
    expect(direct.screen).not.toContain('PAGED:');
  });

  it('PAGER when CR_PAGER is unset; one page (no --all) is never paged', async () => {
    const r = await onTerminal(['--all', '--json'], { PAGER: MARK });
    expect(r.screen).toContain('PAGED: {');
    const one = await onTerminal(['--limit', '3'], { PAGER: MARK });
    expect(one.screen).not.toContain('PAGED:');
  });

  it('a pager that cannot run loses nothing: the list is printed, and stderr says why', async () => {
    const r = await onTerminal(['--all'], { CR_PAGER: '/nonexistent/pager' });
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toContain('cr: the pager "/nonexistent/pager" could not run; printed here instead');
    expect(r.screen).toContain('showing 1-120 of 120');
  });

  it('a pager that fails (PAGER=false) or exits 0 without reading loses nothing: the list is printed, and stderr names the pager', async () => {
    const failed = await onTerminal(['--all'], { PAGER: 'false' });
    expect(failed.exitCode, failed.screen).toBe(0);
    expect(failed.screen).toContain('cr: the pager "false" failed (exit 1); printed here instead');
    expect(failed.screen).toContain('showing 1-120 of 120');
    const unread = await onTerminal(['--all'], { PAGER: 'sh -c "exit 0"' });
    expect(unread.exitCode, unread.screen).toBe(0);
    expect(unread.screen).toContain('cr: the pager "sh -c \\"exit 0\\"" failed (it exited without reading the output); printed here instead');
    expect(unread.screen).toContain('showing 1-120 of 120');
  });

  it('a pager that reads and exits 0 (q in less) is taken at its word: nothing more is printed', async () => {
    const r = await onTerminal(['--all'], { PAGER: "head -n 2 | sed 's/^/PAGED: /'" });
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toMatch(/^PAGED: (ID +)?TITLE +STATUS/m);
    expect(r.screen).not.toContain('showing 1-120 of 120');
    expect(r.screen).not.toContain('printed here instead');
  });

  it.skipIf(!existsSync('/usr/bin/less'))('q in less after the first screen is the reader quitting: nothing more is printed', async () => {
    const run = listOnPty(['--all'], { CR_PAGER: '/usr/bin/less' });
    try {
      await run.waitFor('TITLE');
      run.type('q');
      const { exitCode } = await run.done;
      expect(exitCode, run.screen()).toBe(0);
      expect(run.screen()).not.toContain('printed here instead');
      expect(run.screen()).not.toContain('showing 1-120 of 120');
    } finally {
      run.kill();
    }
  });

  it("Ctrl-C while the pager shows the list is the pager's: cr waits for it and ends with its own code", async () => {
    // A reader that shows everything, says it is waiting, then stays until interrupted.
    const run = listOnPty(['--all'], { CR_PAGER: 'cat; echo PAGER-WAITS; sleep 30' });
    try {
      await run.waitFor('PAGER-WAITS');
      // Ctrl-C until the pager is gone: on a loaded machine the first may come before `sleep`
      // runs; cr itself leaves every one of them to the pager.
      let done = false;
      void run.done.then(() => (done = true));
      for (let i = 0; i < 20 && !done; i++) {
        run.type('\x03');
        await new Promise((r) => setTimeout(r, 250));
      }
      const { exitCode } = await run.done;
      expect(exitCode, run.screen()).toBe(0);
      expect(run.screen()).not.toContain('Interrupted');
    } finally {
      run.kill();
    }
  });

  it('piped, --all and --all --json never go through the pager', async () => {
    for (const args of [['--all'], ['--all', '--json']]) {
      const r = await runBin(['nurture', 'list', ...args], { env: { CR_PAGER: MARK, CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: key, CR_NOW: NOW } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(String(r.stdout)).not.toContain('PAGED:');
      expect(String(r.stdout).length).toBeGreaterThan(1000);
    }
  });
});
