import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StoreLockedError, acquireLock, lockPathOf, processIdentity } from '../../src/server/store/lock.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import { spawnProcess } from '../helpers/process.js';
import { soak } from '../helpers/soak.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * The store lock under contention: several real processes start together on a store whose
 * lock is stale; exactly one may win. Guards the half-written-lock and stale-takeover races.
 * The children use the built module (dist/ is built by the global setup, never here).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT_LOCK = join(ROOT, 'dist', 'src', 'server', 'store', 'lock.js');

const PROCS = 8;
const ROUNDS = soak(1, 5);
const START_DELAY_MS = 500; // time for every child to start node and import the module

// Imports the lock module, waits for the shared start time (spinning the last few ms so the
// children really collide), tries the lock and prints `got` or `locked`. Every child then
// waits for its stdin to close, which the test does once all have printed: the winner holds
// until every loser has tried, so a child that starts late cannot win after a release.
const CHILD = `
const [url, store, startAt] = process.argv.slice(1);
const closed = new Promise((r) => process.stdin.on('end', r).resume());
const { acquireLock, StoreLockedError } = await import(url);
const start = Number(startAt);
if (Date.now() > start) process.stderr.write('late by ' + (Date.now() - start) + ' ms\\n');
await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now() - 15)));
while (Date.now() < start);
let release;
try {
  release = acquireLock(store);
} catch (err) {
  if (!(err instanceof StoreLockedError)) throw err;
}
console.log(release ? 'got' : 'locked');
await closed;
release?.();
`;

/** The pid of a process that has exited (and was not reused since: pids go up). */
async function deadPid(): Promise<number> {
  const child = spawnProcess(process.execPath, ['-e', '0']);
  await child;
  const pid = child.pid!;
  expect(() => process.kill(pid, 0)).toThrow();
  return pid;
}

// Locks and guards as this pid namespace writes them: their pid is what says whether they are
// alive (lock-liveness.ts; other namespaces are judged by the heartbeat, lock-heartbeat.test.ts).
// Without this process's start time: these locks name other pids (lock-owner.test.ts has start times).
const here = () => {
  const { pidStart: _own, ...where } = processIdentity(nodeFs.sync) ?? { pidStart: undefined };
  return where;
};

function writeStaleLock(store: string, pid: number) {
  writeFileSync(lockPathOf(store), JSON.stringify({ pid, startedAt: '2020-01-01T00:00:00.000Z', store, ...here() }), { mode: 0o600 });
}

afterAll(() => cleanupTempDirs());

describe('store lock under contention', () => {
  it(`${PROCS} processes on a stale lock: exactly one wins, every round; nothing is left behind`, async () => {
    expect(existsSync(BUILT_LOCK), `${BUILT_LOCK} missing: dist/ is built by the vitest global setup`).toBe(true);
    const url = pathToFileURL(BUILT_LOCK).href;
    const dir = tempDir('cr-lock-race-');
    const store = join(dir, 'store.json');

    for (let round = 0; round < ROUNDS; round++) {
      writeStaleLock(store, await deadPid());
      const startAt = String(Date.now() + START_DELAY_MS);
      const children = Array.from({ length: PROCS }, () => spawnProcess(process.execPath, ['--input-type=module', '-e', CHILD, url, store, startAt], { stdin: 'pipe', timeoutMs: 10_000 }));
      // Release them all once each has answered (or exited: a crash shows in the checks below).
      await Promise.all(children.map((c) => new Promise((r) => (c.stdout!.once('data', r), c.once('exit', r)))));
      for (const c of children) c.stdin!.end();
      const results = await Promise.all(children);
      const outs = results.map((r) => r.stdout.trim());
      const detail = `round ${round}: ${JSON.stringify(outs)} ${results
        .map((r) => r.stderr.trim())
        .filter(Boolean)
        .join(' | ')}`;
      for (const r of results) expect(r.exitCode, detail).toBe(0);
      expect(outs.filter((o) => o === 'got').length, detail).toBe(1);
      expect(outs.filter((o) => o === 'locked').length, detail).toBe(PROCS - 1);
      // No temp or aside files, and the winner's release removed the lock.
      expect(readdirSync(dir), detail).toEqual([]);
    }
  }, 15_000);

  it('a lock held by a live pid is refused, naming that pid, and left alone', () => {
    const dir = tempDir('cr-lock-live-');
    const store = join(dir, 'store.json');
    const live = process.ppid; // the test runner: alive, and not this process
    const held = JSON.stringify({ pid: live, startedAt: '2025-06-15T12:00:00.000Z', store, ...here() });
    writeFileSync(lockPathOf(store), held);
    let caught: unknown;
    try {
      acquireLock(store);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StoreLockedError);
    expect((caught as StoreLockedError).holder.pid).toBe(live);
    expect((caught as Error).message).toContain(`${store} is in use by another cr server (pid ${live}, since 2025-06-15T12:00:00.000Z)`);
    expect(readFileSync(lockPathOf(store), 'utf8')).toBe(held);
    expect(readdirSync(dir)).toEqual(['store.json.lock']);
  });

  it('a lock this process holds is refused to a second acquire in the same process', () => {
    const dir = tempDir('cr-lock-self-');
    const store = join(dir, 'store.json');
    const release = acquireLock(store);
    try {
      expect(() => acquireLock(store)).toThrow(`(pid ${process.pid}, since`);
    } finally {
      release();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an empty lock file (a writer that died half-way) is taken over', () => {
    const dir = tempDir('cr-lock-empty-');
    const store = join(dir, 'store.json');
    writeFileSync(lockPathOf(store), '');
    const release = acquireLock(store);
    expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8'))).toMatchObject({ pid: process.pid, store });
    expect(readdirSync(dir)).toEqual(['store.json.lock']);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a stale lock is taken over; release leaves a lock that is no longer ours alone', () => {
    const dir = tempDir('cr-lock-stale-');
    const store = join(dir, 'store.json');
    writeStaleLock(store, 2 ** 22 + 12345);
    const release = acquireLock(store);
    expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8')).pid).toBe(process.pid);
    const other = JSON.stringify({ pid: process.ppid, startedAt: '2025-06-15T12:00:00.000Z', store, other: true, ...here() });
    writeFileSync(lockPathOf(store), other);
    release();
    expect(readFileSync(lockPathOf(store), 'utf8')).toBe(other);
    expect(readdirSync(dir)).toEqual(['store.json.lock']);
  });

  it('a takeover guard left by a process killed mid-takeover (dead pid, or reused pid and old) does not block', async () => {
    const dir = tempDir('cr-lock-guard-');
    const store = join(dir, 'store.json');
    const guard = `${lockPathOf(store)}.takeover`;
    for (const pid of [await deadPid(), process.ppid]) {
      writeStaleLock(store, 2 ** 22 + 12345);
      writeFileSync(guard, JSON.stringify({ pid, startedAt: '2020-01-01T00:00:00.000Z', store, ...here() }));
      if (pid === process.ppid) utimesSync(guard, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const release = acquireLock(store);
      expect(readdirSync(dir)).toEqual(['store.json.lock']);
      release();
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
