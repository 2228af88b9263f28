import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonStore } from '../../src/server/store/json-store.js';
import { rateLimitFileOf } from '../../src/server/store/rate-windows.js';
import { jsonStoreReadiness, WRITE_FAILURE_HOLD_MS } from '../../src/server/store/json-readiness.js';
import { lockPathOf, processIdentity } from '../../src/server/store/lock.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { FileHandleLike, StoreFs } from '../../src/server/store/fs-layer.js';
import { StoreUnavailableError } from '../../src/server/store/errors.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { FIXTURE, IDS, KEYS } from './helpers.js';
import { createHash } from 'node:crypto';

/**
 * The JSON store's readiness (src/server/store/json-readiness.ts, what GET /readyz asks) and
 * its reads once its lock is lost (docs/reliability.md "The store's lock"), in process over
 * real files; a full disk through the store's fs layer.
 */
afterAll(() => cleanupTempDirs());

const sha = (key: string) => createHash('sha256').update(key).digest('hex');
const listener = (id: string) => ({ id, website_id: IDS.W1, name: 'Feed', source_type: 'rss', query_config: {}, created_at: '2025-06-15T12:00:00Z' });

/** Journal appends fail with ENOSPC while `full.on` (a write that fails half-way, as a real one can). */
function fullDisk(full: { on: boolean }): StoreFs {
  return {
    ...nodeFs,
    open: async (p, flags, mode) => {
      const fh = await nodeFs.open(p, flags, mode);
      if (flags !== 'a') return fh;
      const wrapped: FileHandleLike = {
        writeFile: async (d) => {
          if (full.on) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          return fh.writeFile(d);
        },
        sync: () => fh.sync(),
        truncate: (n) => fh.truncate(n),
        close: () => fh.close(),
      };
      return wrapped;
    },
  };
}

/** The lock's timing shortened: a takeover is possible 200 ms after the last heartbeat (lock.ts). */
const LOCK_TIMING = { heartbeatMs: 50, staleMs: 200 };
/** Blocks this thread: no heartbeat runs meanwhile, as in a frozen or busy server. */
const freeze = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

async function openCopy(fs?: StoreFs) {
  const path = join(tempDir('cr-json-ready-'), 'store.json');
  copyFileSync(FIXTURE, path);
  let lost = 0;
  const store = await JsonStore.open(path, { fs, onLockLost: () => lost++, lockTiming: LOCK_TIMING });
  return { path, store, lost: () => lost };
}

describe('JSON store readiness', () => {
  it('is ready while its lock is its own and its writes work', async () => {
    const { store } = await openCopy();
    try {
      expect(await store.readiness()).toEqual({ ready: true });
    } finally {
      await store.close();
    }
  });

  it('lock taken over while no heartbeat ran: the next read is refused (StoreUnavailableError lock_lost), so is every read after; not ready; the loss told once', async () => {
    const { path, store, lost } = await openCopy();
    try {
      expect(store.keyBySha256(sha(KEYS.viewerW1))).toBeDefined();
      // Frozen past half the staleness (no heartbeat runs), and another process's lock put in
      // place meanwhile (what a takeover leaves): the read itself must find it.
      writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...processIdentity(nodeFs.sync) }));
      freeze(LOCK_TIMING.staleMs);
      expect(() => store.keyBySha256(sha(KEYS.viewerW1))).toThrow(StoreUnavailableError);
      expect(lost()).toBe(1);
      const ready = await store.readiness();
      expect(ready).toMatchObject({ ready: false, cause: 'lock_lost' });
      expect(ready.ready === false && ready.reason).toContain('was taken over by another cr process');
      for (const read of [() => store.keyBySha256(sha(KEYS.viewerW1)), () => store.website(IDS.W1), () => store.apiKeys()]) {
        let thrown: unknown;
        try {
          read();
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(StoreUnavailableError);
        expect((thrown as StoreUnavailableError).why).toBe('lock_lost');
      }
      await expect(store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('l-after-loss') }])).rejects.toMatchObject({ why: 'lock_lost' });
      expect(lost()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('closed after a takeover, it leaves the rate-limit sidecar to the new holder (nothing written)', async () => {
    const path = join(tempDir('cr-json-ready-'), 'store.json');
    copyFileSync(FIXTURE, path);
    const store = await JsonStore.open(path, { rateSidecar: true, lockTiming: LOCK_TIMING });
    store.rateHit('key-1', Date.now(), 3_600_000);
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: process.ppid, startedAt: new Date().toISOString(), store: path, ...processIdentity(nodeFs.sync) }));
    await store.close();
    expect(existsSync(rateLimitFileOf(path))).toBe(false);
  });

  it('under 1 MiB free beside the store (statfs through the fs layer): not ready (disk_full), naming the bytes left', async () => {
    const { store } = await openCopy({ ...nodeFs, statfs: async () => ({ bavail: 3, bsize: 4096 }) });
    try {
      const ready = await store.readiness();
      expect(ready).toMatchObject({ ready: false, cause: 'disk_full' });
      expect(ready.ready === false && ready.reason).toMatch(/^12288 bytes free beside .*store\.json; free some space/);
    } finally {
      await store.close();
    }
  });

  it('a journal append failing with ENOSPC: not ready (disk_full) until a write works again, or the hold passes', async () => {
    const full = { on: true };
    const { store } = await openCopy(fullDisk(full));
    try {
      await expect(store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('l-full') }])).rejects.toMatchObject({ why: 'disk_full' });
      const ready = await store.readiness();
      expect(ready).toMatchObject({ ready: false, cause: 'disk_full' });
      expect(ready.ready === false && ready.reason).toContain('(ENOSPC)');
      // Past the hold with no write since, it is ready again (a balancer sending it nothing must not keep it out for good).
      expect(await jsonStoreReadiness(store.file, nodeFs, Date.now() + WRITE_FAILURE_HOLD_MS + 1)).toEqual({ ready: true });
      full.on = false;
      await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('l-ok') }]);
      expect(await store.readiness()).toEqual({ ready: true });
    } finally {
      await store.close();
    }
  });
});
