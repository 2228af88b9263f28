import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreLockedError, acquireLock, lockPathOf, processIdentity } from '../../src/server/store/lock.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import { Store, StoreUnavailableError } from '../../src/server/store/store.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { FIXTURE, sleep } from './support.js';

/**
 * The lock's heartbeat (lock-liveness.ts), in process with short periods: a lock written in
 * another pid namespace is judged by whether its mtime moves, never by its pid. The real
 * binary across real namespaces: lock-namespaces.test.ts.
 */
afterAll(() => cleanupTempDirs());

const FAST = { heartbeatMs: 100, staleMs: 1_000 };
// Without this process's start time: these locks name other pids (lock-owner.test.ts has start times).
const { pidStart: _own, ...here } = processIdentity(nodeFs.sync)!;

/** A lock as a server in another pid namespace writes it (its pid, 1, means nothing here). */
function foreignLock(store: string, o: { ageMs?: number } = {}) {
  const text = JSON.stringify({ pid: 1, startedAt: '2025-06-15T12:00:00.000Z', store, pidNs: 'pid:[4026500000]', bootId: here.bootId });
  writeFileSync(lockPathOf(store), text, { mode: 0o600 });
  if (o.ageMs) utimesSync(lockPathOf(store), new Date(Date.now() - o.ageMs), new Date(Date.now() - o.ageMs));
  return text;
}

describe('the lock heartbeat', () => {
  it('a lock of another pid namespace whose heartbeat moves is refused (pid 1 is alive here, which says nothing)', async () => {
    const dir = tempDir('cr-beat-live-');
    const store = join(dir, 'store.json');
    const text = foreignLock(store);
    // The holder: another process refreshing the mtime, as a live server does.
    const holder = spawnProcess(process.execPath, ['-e', `const fs=require('fs');setInterval(()=>{const t=new Date();fs.utimesSync(${JSON.stringify(lockPathOf(store))},t,t)},${FAST.heartbeatMs})`]);
    try {
      await sleep(300);
      const t0 = performance.now();
      expect(() => acquireLock(store, nodeFs, FAST)).toThrow(StoreLockedError);
      const ms = performance.now() - t0;
      expect(ms).toBeLessThan(FAST.staleMs); // decided by a heartbeat seen moving, not by waiting it out
      expect(() => acquireLock(store, nodeFs, FAST)).toThrow('(pid 1 in another pid namespace, since 2025-06-15T12:00:00.000Z)');
      expect(readFileSync(lockPathOf(store), 'utf8')).toBe(text);
    } finally {
      holder.kill('SIGKILL');
      await holder;
    }
  });

  it('a lock of another pid namespace whose heartbeat stands still is taken over once stale', () => {
    const dir = tempDir('cr-beat-still-');
    const store = join(dir, 'store.json');
    foreignLock(store);
    const t0 = performance.now();
    const release = acquireLock(store, nodeFs, FAST);
    const ms = performance.now() - t0;
    expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8'))).toMatchObject({ pid: process.pid, ...here });
    expect(ms).toBeGreaterThanOrEqual(FAST.staleMs - 50); // watched, not taken on sight
    release();
  });

  it('a lock of another pid namespace older than the staleness is taken over at once', () => {
    const dir = tempDir('cr-beat-old-');
    const store = join(dir, 'store.json');
    foreignLock(store, { ageMs: 5 * FAST.staleMs });
    const release = acquireLock(store, nodeFs, FAST);
    expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('a lock of this namespace whose holder is a zombie (killed, not yet reaped) is taken over at once', async () => {
    const dir = tempDir('cr-beat-zombie-');
    const store = join(dir, 'store.json');
    // `sh` forks a child that exits at once, then becomes `sleep`, which never reaps it.
    const parent = spawnProcess('sh', ['-c', 'true & echo $!; exec sleep 5']);
    const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
    // Under load the shell may reap it before it execs; a pid that is gone is dead all the same.
    const state = () => {
      try {
        return readFileSync(`/proc/${zombie}/stat`, 'utf8');
      } catch {
        return 'gone) Z';
      }
    };
    for (let i = 0; i < 100 && !state().includes(') Z'); i++) await sleep(10);
    writeFileSync(lockPathOf(store), JSON.stringify({ pid: zombie, startedAt: '2025-06-15T12:00:00.000Z', store, ...here }));
    try {
      const release = acquireLock(store, nodeFs, FAST);
      expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8')).pid).toBe(process.pid);
      release();
    } finally {
      parent.kill();
      await parent.catch(() => undefined);
    }
  });

  it('a lock with no namespace (an older cr) is judged by its heartbeat too', () => {
    const dir = tempDir('cr-beat-legacy-');
    const store = join(dir, 'store.json');
    writeFileSync(lockPathOf(store), JSON.stringify({ pid: process.ppid, startedAt: '2025-06-15T12:00:00.000Z', store }));
    utimesSync(lockPathOf(store), new Date(Date.now() - 5 * FAST.staleMs), new Date(Date.now() - 5 * FAST.staleMs));
    acquireLock(store, nodeFs, FAST)();
  });

  it('the holder refreshes the mtime while it holds the lock', async () => {
    const dir = tempDir('cr-beat-refresh-');
    const store = join(dir, 'store.json');
    const release = acquireLock(store, nodeFs, { heartbeatMs: 50 });
    try {
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockPathOf(store), old, old);
      await sleep(200);
      expect(Date.now() - statSync(lockPathOf(store)).mtimeMs).toBeLessThan(30_000);
    } finally {
      release();
    }
  });

  it('a store whose lock was taken over while it was frozen stops writing, says so once, and folds nothing on close', async () => {
    const dir = tempDir('cr-beat-lost-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    const lost: string[] = [];
    // A 100 ms heartbeat (the default is 1 s): the loss is noticed at the next beat.
    const store = await Store.open(path, { onLockLost: () => lost.push('lost'), lockTiming: { heartbeatMs: 100 } });
    const id = store.list('social_posts')[0]!.id;
    await store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'journaled, not yet folded' } }]);
    const snapshot = readFileSync(path);
    // What another server does after judging this one stale: its own lock in place.
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...here }));
    await vi.waitFor(() => expect(lost).toEqual(['lost']), { timeout: 5_000 });
    await sleep(300); // three more beats: the loss is told once
    expect(lost).toEqual(['lost']);
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'after the loss' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.close();
    expect(readFileSync(path).equals(snapshot)).toBe(true); // no fold over the other server's file
    expect(JSON.parse(readFileSync(lockPathOf(path), 'utf8')).pid).toBe(process.ppid); // its lock left alone
  });
});
