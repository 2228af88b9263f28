import { afterAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../helpers/process.js';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LockUnreadableError, StoreLockedError, acquireLock, lockPathOf, processIdentity } from '../../src/server/store/lock.js';
import { startTimeOf } from '../../src/server/store/lock-liveness.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { FileHandleLike, StoreFs } from '../../src/server/store/fs-layer.js';
import { Store, StoreUnavailableError } from '../../src/server/store/store.js';
import { asCliError } from '../../src/local/errors.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { FIXTURE, sleep } from './support.js';

/**
 * Whose the store is (docs/reliability.md "The store's lock"): a live holder of this pid
 * namespace keeps its lock whatever its heartbeat says (the kernel's start time of its pid is
 * in the lock); a lock that cannot be read is left alone; and a store whose lock is no longer
 * this process's acknowledges nothing more. In process, over the built lock module for the
 * holder child (dist/ is built by the global setup).
 */
afterAll(() => cleanupTempDirs());

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT_LOCK = join(ROOT, 'dist', 'src', 'server', 'store', 'lock.js');
const here = processIdentity(nodeFs.sync)!;
const hourAgo = () => new Date(Date.now() - 3_600_000);

/** A child that takes the lock with the built module, then waits. */
async function holderProcess(store: string) {
  const child = spawnProcess(
    process.execPath,
    ['--input-type=module', '-e', `const { acquireLock } = await import(${JSON.stringify(`file://${BUILT_LOCK}`)}); acquireLock(${JSON.stringify(store)}); setInterval(() => {}, 1000);`],
    { timeoutMs: 120_000 },
  );
  // Waits for the lock file the child writes (its stdout may be held back by the pipe).
  for (let i = 0; i < 500 && !existsSync(lockPathOf(store)); i++) {
    if (child.exitCode !== null) throw new Error(`holder exited ${child.exitCode}`);
    await sleep(10);
  }
  return { child, pid: child.pid! }; // not the child itself: a thenable would be awaited to its end
}

describe('a live holder of this pid namespace keeps its lock', () => {
  it('frozen with SIGSTOP and its heartbeat an hour old (a clock step), it is still refused, not taken over', async () => {
    const store = join(tempDir('cr-owner-stop-'), 'store.json');
    const { child: holder } = await holderProcess(store);
    try {
      const text = readFileSync(lockPathOf(store), 'utf8');
      expect(JSON.parse(text).pidStart).toBe(startTimeOf(nodeFs.sync, holder.pid!));
      process.kill(holder.pid!, 'SIGSTOP');
      utimesSync(lockPathOf(store), hourAgo(), hourAgo());
      expect(() => acquireLock(store, nodeFs, { staleMs: 1_000 })).toThrow(StoreLockedError);
      expect(readFileSync(lockPathOf(store), 'utf8')).toBe(text);
    } finally {
      process.kill(holder.pid!, 'SIGKILL');
      await holder;
    }
  });

  it('a live process with another start time has reused the pid: the lock is taken over at once, fresh heartbeat or not', () => {
    const store = join(tempDir('cr-owner-reused-'), 'store.json');
    // The parent (vitest's worker host) is alive; the start time in the lock is not its own.
    writeFileSync(lockPathOf(store), JSON.stringify({ pid: process.ppid, startedAt: '2025-06-15T12:00:00.000Z', store, ...here, pidStart: '1' }));
    const release = acquireLock(store, nodeFs);
    expect(JSON.parse(readFileSync(lockPathOf(store), 'utf8')).pid).toBe(process.pid);
    release();
  });
});

describe('a lock that cannot be read', () => {
  /** Reads of the lock fail with `code`, moved aside or not (as for another user's 0600 lock, or a failing disk). */
  const unreadable = (store: string, code: string): StoreFs => ({
    ...nodeFs,
    sync: {
      ...nodeFs.sync,
      readFile: (p) => {
        if (p === lockPathOf(store) || p.endsWith('.aside')) throw Object.assign(new Error(`${code}: cannot read ${p}`), { code });
        return nodeFs.sync.readFile(p);
      },
    },
  });

  it.each(['EACCES', 'EIO', 'EMFILE'])('%s: refused with the error; the lock is neither taken over nor removed, old heartbeat or not', async (code) => {
    const store = join(tempDir('cr-owner-unreadable-'), 'store.json');
    const text = JSON.stringify({ pid: process.ppid, startedAt: '2025-06-15T12:00:00.000Z', store, ...here });
    writeFileSync(lockPathOf(store), text, { mode: 0o600 });
    utimesSync(lockPathOf(store), hourAgo(), hourAgo());
    let thrown: unknown;
    try {
      acquireLock(store, unreadable(store, code), { staleMs: 200 });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(LockUnreadableError);
    expect((thrown as Error).message).toContain(`cannot read the lock ${lockPathOf(store)} (${code})`);
    expect(readFileSync(lockPathOf(store), 'utf8')).toBe(text);
    // What the CLI makes of it: exit 1, its own code, the same words.
    const cli = (await asCliError(thrown)) as { exitCode: number; code: string; message: string };
    expect({ exit: cli.exitCode, code: cli.code }).toEqual({ exit: 1, code: 'STORE_LOCK_UNREADABLE' });
    expect(cli.message).toContain('left alone');
  });
});

describe('a directory in place of the lock', () => {
  it('is refused with STORE_LOCK_UNREADABLE (not an internal error), and left alone', async () => {
    const store = join(tempDir('cr-owner-lockdir-'), 'store.json');
    mkdirSync(lockPathOf(store));
    let thrown: unknown;
    try {
      acquireLock(store, nodeFs, { staleMs: 200 });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(LockUnreadableError);
    const cli = (await asCliError(thrown)) as { exitCode: number; code: string; message: string };
    expect({ exit: cli.exitCode, code: cli.code }).toEqual({ exit: 1, code: 'STORE_LOCK_UNREADABLE' });
    expect(cli.message).toContain('is a directory');
    expect(statSync(lockPathOf(store)).isDirectory()).toBe(true);
  });

  it('put there while held: the holder is told it lost the store (no throw out of its heartbeat), and its next write is refused', async () => {
    const dir = tempDir('cr-owner-lockdir-held-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    const lost: string[] = [];
    const store = await Store.open(path, { onLockLost: () => lost.push('lost') });
    const id = store.list('social_posts')[0]!.id;
    rmSync(lockPathOf(path));
    mkdirSync(lockPathOf(path));
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'after' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(lost).toEqual(['lost']);
    await store.close();
    // The heartbeat of a lock held directly: it notices on its own, and throws nothing.
    const other = join(dir, 'other.json');
    const seen: string[] = [];
    const release = acquireLock(other, nodeFs, { heartbeatMs: 20, staleMs: 200, onLost: () => seen.push('lost') });
    rmSync(lockPathOf(other));
    mkdirSync(lockPathOf(other));
    for (let i = 0; i < 100 && seen.length === 0; i++) await sleep(10);
    release();
    expect(seen).toEqual(['lost']);
    expect(statSync(lockPathOf(other)).isDirectory()).toBe(true);
  });
});

describe('a store whose lock was taken over acknowledges nothing more', () => {
  it('a write journaled after the takeover is refused (503) and the store stops', async () => {
    const dir = tempDir('cr-owner-ack-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    const lost: string[] = [];
    // A heartbeat far slower than the test: only the check after the fsync can notice.
    const store = await Store.open(path, { onLockLost: () => lost.push('lost') });
    const id = store.list('social_posts')[0]!.id;
    await store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'mine' } }]);
    // Another server's lock in place now (it judged this one stale while it was frozen).
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...here }));
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'after the takeover' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(lost).toEqual(['lost']);
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'later' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(store.get('social_posts', id)?.content).toBe('mine');
    await store.close();
    expect(existsSync(lockPathOf(path))).toBe(true); // the other server's lock is left alone
  });

  it('a takeover while the journal append is being fsynced: the write is refused (503), not acknowledged', async () => {
    const dir = tempDir('cr-owner-fsync-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    let takeOverDuringSync = false;
    // The fsync of the journal is where a frozen server stops; another server takes over meanwhile.
    const fs: StoreFs = {
      ...nodeFs,
      open: async (p, flags, mode) => {
        const fh = await nodeFs.open(p, flags, mode);
        if (p !== `${path}.journal`) return fh;
        const handle: FileHandleLike = {
          writeFile: (d) => fh.writeFile(d),
          sync: async () => {
            await fh.sync();
            if (takeOverDuringSync) writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...here }));
          },
          truncate: (n) => fh.truncate(n),
          close: () => fh.close(),
          stat: () => fh.stat!(),
        };
        return handle;
      },
    };
    const store = await Store.open(path, { fs });
    const id = store.list('social_posts')[0]!.id;
    await store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'mine' } }]);
    takeOverDuringSync = true;
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'during the fsync' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(store.get('social_posts', id)?.content).toBe('mine');
    await store.close();
  });

  it("a takeover while a fold keeps its backups: the fold's rename does not replace the other server's store file", async () => {
    const dir = tempDir('cr-owner-fold-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    let takeOverOnBackup = false;
    // The fold's backups (links) come right before its rename; the other server takes over there.
    const fs: StoreFs = {
      ...nodeFs,
      link: async (a, b) => {
        await nodeFs.link(a, b);
        if (takeOverOnBackup) writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...here }));
      },
    };
    const lost: string[] = [];
    const store = await Store.open(path, { fs, journalMaxRecords: 1_000_000, journalMaxBytes: 1 << 30, onLockLost: () => lost.push('lost') });
    const id = store.list('social_posts')[0]!.id;
    await store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'mine' } }]);
    const before = readFileSync(path);
    takeOverOnBackup = true;
    await store.compact();
    expect(readFileSync(path).equals(before)).toBe(true); // not replaced by this server's fold
    expect(lost).toEqual(['lost']);
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'later' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.close();
  });

  it('the journal moved aside by another server (same lock text): refused (503)', async () => {
    const dir = tempDir('cr-owner-journal-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    const store = await Store.open(path);
    const id = store.list('social_posts')[0]!.id;
    await store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'mine' } }]);
    // What another server's fold does: the journal kept as a backup, a new one in its place.
    copyFileSync(`${path}.journal`, `${path}.journal.new`);
    nodeFs.sync.rename(`${path}.journal`, `${path}.bak.1.journal`);
    nodeFs.sync.rename(`${path}.journal.new`, `${path}.journal`);
    await expect(store.commit([{ op: 'patch', collection: 'social_posts', id, patch: { content: 'into the old journal' } }])).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.abandon();
    await sleep(0);
  });
});
