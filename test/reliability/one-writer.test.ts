import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { lockPathOf } from '../../src/server/store/lock.js';
import { IDS, KEYS, fixtureStore, request } from '../server/helpers.js';
import { ensureBuilt, runCr, spawnCrServe } from './durability-helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * One writer per store (reliability item 4): while `cr serve` holds a store, a second
 * `cr serve` and `cr local keys create` on it exit non-zero within 2 s, saying who holds it;
 * after the holder is SIGKILLed its stale lock is taken over by the next server within 10 s.
 */
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const cleanups = cleanupsAfterAll();

describe('one writer per store file', () => {
  it('a second server is refused quickly, a key command goes through the server; a SIGKILLed holder is replaced', async () => {
    const s = await fixtureStore();
    cleanups.push(s.cleanup);
    const first = spawnCrServe(s.path, s.dir);
    cleanups.push(async () => first.child.kill('SIGKILL'));
    await first.ready;
    const pid = first.child.pid!;
    const figures: Record<string, number> = {};

    let t = Date.now();
    const second = await runCr(['serve', '--store', s.path, '--host', '127.0.0.1', '--port', '0'], s.dir, 5000);
    figures.secondServeMs = Date.now() - t;
    expect(second.exitCode).not.toBe(0);
    expect(second.timedOut).toBe(false);
    expect(figures.secondServeMs).toBeLessThan(2000);
    expect(second.stderr).toContain(`${s.path} is in use by another cr server (pid ${pid}`);

    // A key command does not wait for the server: it goes through it (local administration, docs/commands.md).
    t = Date.now();
    const keys = await runCr(['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1, '--store', s.path], s.dir, 5000);
    figures.keysCreateMs = Date.now() - t;
    expect(keys.exitCode, keys.stderr).toBe(0);
    expect(figures.keysCreateMs).toBeLessThan(2000);
    expect(keys.stdout).toMatch(/^cr_[0-9a-f]{40}$/m);

    first.child.kill('SIGKILL');
    expect((await first.child).signal).toBe('SIGKILL');
    expect(existsSync(lockPathOf(s.path))).toBe(true); // the stale lock is still there

    t = Date.now();
    const next = spawnCrServe(s.path, s.dir);
    cleanups.push(async () => next.child.kill('SIGKILL'));
    const url = await next.ready;
    figures.takeoverMs = Date.now() - t;
    expect(figures.takeoverMs).toBeLessThan(10_000);
    expect((await request(url, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    next.child.kill('SIGTERM');
    expect((await next.child).exitCode).toBe(0);
    expect(existsSync(lockPathOf(s.path))).toBe(false);

    // And with no server, the key command works.
    const made = await runCr(['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1, '--store', s.path], s.dir, 5000);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^cr_[0-9a-f]{40}$/m);
    console.log(`one-writer test: ${JSON.stringify(figures)}`);
  }, 40_000);
});
