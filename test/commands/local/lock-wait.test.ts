import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { acquireLock, StoreLockedError } from '../../../src/server/store/lock.js';
import { withStoreLock } from '../../../src/local/lock-wait.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): the store file's lock; a database has none.

/**
 * Waiting for a short-lived holder of a store's lock, and saying who holds it. The holder
 * here is this process (alive), under the label a real `--local` or `cr serve` writes.
 */
afterAll(() => cleanupTempDirs());

async function newStore(home: string): Promise<{ store: string; websiteId: string }> {
  const store = join(home, 'store.json');
  const init = await runCli(['local', 'init', '--store', store, '--json'], { configDir: home });
  expect(init.exitCode).toBe(0);
  return { store, websiteId: (JSON.parse(init.stdout) as { websiteId: string }).websiteId };
}

describe('a store held by a short --local run', () => {
  it('cr local keys create waits for it and succeeds', async () => {
    const home = tempDir('cr-wait-');
    const { store, websiteId } = await newStore(home);
    const release = acquireLock(store, undefined, { label: 'cr --local' });
    const freed = new Promise<void>((resolve) =>
      setTimeout(() => {
        release();
        resolve();
      }, 300),
    );
    const r = await runCli(['local', 'keys', 'create', '--role', 'viewer', '--website', websiteId, '--store', store], { configDir: home });
    await freed;
    expect(r.stderr).not.toContain('in use');
    expect(r.exitCode).toBe(0);
  });

  it('names the holder when it does not let go in time', async () => {
    const home = tempDir('cr-wait-');
    const { store } = await newStore(home);
    const release = acquireLock(store, undefined, { label: 'cr --local' });
    try {
      const err = await withStoreLock(async () => acquireLock(store), { storePath: store, waitMs: 100 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreLockedError);
      expect((err as Error).message).toBe(`${store} is in use by a short cr --local run (pid ${process.pid}); it did not finish within 0 s; try again`);
    } finally {
      release();
    }
  });

  // A `cr serve` that holds the lock but has not advertised itself yet is waited for (it is
  // starting); CR_LOCK_WAIT_MS (src/local/lock-wait.ts) shortens that wait from 15 s.
  it('refuses, naming it, when a cr serve holds the store and never advertises itself', async () => {
    const home = tempDir('cr-wait-');
    const { store } = await newStore(home);
    const release = acquireLock(store, undefined, { label: 'cr serve' });
    try {
      const r = await runCli(['local', 'keys', 'revoke', 'nope', '--store', store], { configDir: home, env: { CR_LOCK_WAIT_MS: '300' } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`is in use by another cr server (pid ${process.pid}, cr serve starting or not answering); stop it first`);
    } finally {
      release();
    }
  });
});
