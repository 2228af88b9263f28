import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { lockPathOf } from '../../src/server/store/lock.js';
import { IDS, KEYS, NOW, fixtureStore, request } from '../server/helpers.js';
import { ensureBuilt, runBin, spawnServe } from './durability-helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * One writer per store (docs/reliability.md): while `cr serve` holds a store, a second
 * `cr serve` on it exits non-zero at once (it does not wait for the lock: a 5 s process
 * timeout would show it), saying who holds it, and `cr local keys create` goes through the
 * server; after the holder is SIGKILLed its stale lock is taken over by the next server. The
 * times go to the log only.
 */
const serveArgs = (path: string) => ['--store', path, '--host', '127.0.0.1'];
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const cleanups = cleanupsAfterAll();

describe('one writer per store file', () => {
  it('a second server is refused quickly, a key command goes through the server; a SIGKILLed holder is replaced', async () => {
    const s = await fixtureStore();
    cleanups.push(s.cleanup);
    const first = await spawnServe(serveArgs(s.path), { dir: s.dir });
    cleanups.push(async () => first.kill('SIGKILL'));
    const pid = first.pid;
    const figures: Record<string, number> = {};

    let t = Date.now();
    const second = await runBin(['serve', ...serveArgs(s.path), '--port', '0'], { configDir: s.dir, env: { CR_NOW: NOW }, timeoutMs: 5000 });
    figures.secondServeMs = Date.now() - t;
    expect(second.exitCode).not.toBe(0);
    expect(second.timedOut).toBe(false);
    expect(second.stderr).toContain(`${s.path} is in use by another cr server (pid ${pid}`);

    // A key command does not wait for the server: it goes through it (local administration, docs/commands.md).
    t = Date.now();
    const keys = await runBin(['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1, '--store', s.path], { configDir: s.dir, env: { CR_NOW: NOW }, timeoutMs: 5000 });
    figures.keysCreateMs = Date.now() - t;
    expect(keys.exitCode, keys.stderr).toBe(0);
    expect(keys.timedOut).toBe(false);
    expect(keys.stdout).toMatch(/^cr_[0-9a-f]{40}$/m);

    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(existsSync(lockPathOf(s.path))).toBe(true); // the stale lock is still there

    t = Date.now();
    const next = await spawnServe(serveArgs(s.path), { dir: s.dir });
    cleanups.push(async () => next.kill('SIGKILL'));
    figures.takeoverMs = Date.now() - t;
    expect((await request(next.origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    expect((await next.stop()).code).toBe(0);
    expect(existsSync(lockPathOf(s.path))).toBe(false);

    // And with no server, the key command works.
    const made = await runBin(['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1, '--store', s.path], { configDir: s.dir, env: { CR_NOW: NOW }, timeoutMs: 5000 });
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^cr_[0-9a-f]{40}$/m);
    console.log(`one-writer test: ${JSON.stringify(figures)}`);
  }, 40_000);
});
