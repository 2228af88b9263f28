import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Store, StoreError, StoreUnavailableError } from '../../src/server/store/store.js';
import { lockPathOf } from '../../src/server/store/lock.js';
import { rateLimitFileOf } from '../../src/server/app/rate-limit.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { FileHandleLike, StoreFs } from '../../src/server/store/fs-layer.js';
import { journalPathOf } from '../../src/server/store/journal.js';
import { IDS, KEYS, fixtureStore, startFixtureServer } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Disk full and write errors (docs/reliability.md), injected through the store's fs layer:
 * ENOSPC/EIO on the journal append, on its fsync, on the snapshot's temp file and on the
 * snapshot rename. An unjournaled write answers the 503 envelope; the store file is intact,
 * no temp file is left, and the next write succeeds once the fault clears.
 */
type Step = 'journal-write' | 'journal-fsync' | 'snapshot-write' | 'snapshot-rename' | 'disk-full';

function faultyFs(state: { fault: Step | null; hits: number }): StoreFs {
  const err = (code: 'ENOSPC' | 'EIO') => Object.assign(new Error(code === 'ENOSPC' ? 'ENOSPC: no space left on device, write' : 'EIO: i/o error, fsync'), { code });
  const hit = (step: Step) => {
    if (state.fault !== step && !(state.fault === 'disk-full' && step !== 'journal-fsync' && step !== 'snapshot-rename')) return false;
    state.hits++;
    return true;
  };
  return {
    ...nodeFs,
    open: async (p, flags, mode) => {
      const fh = await nodeFs.open(p, flags, mode);
      const journal = flags === 'a';
      const snapshotTemp = flags === 'w' && /\.store\.json\.\d+\.\d+\.tmp$/.test(p);
      const wrapped: FileHandleLike = {
        // A write that fails half-way leaves bytes behind, as a real ENOSPC can.
        writeFile: async (d) => {
          if ((journal && hit('journal-write')) || (snapshotTemp && hit('snapshot-write'))) {
            await fh.writeFile(typeof d === 'string' ? d.slice(0, 7) : d.subarray(0, 7));
            throw err('ENOSPC');
          }
          return fh.writeFile(d);
        },
        sync: async () => (journal && hit('journal-fsync') ? Promise.reject(err('EIO')) : fh.sync()),
        truncate: (n) => fh.truncate(n),
        close: () => fh.close(),
      };
      return wrapped;
    },
    rename: async (a, b) => (b.endsWith('store.json') && hit('snapshot-rename') ? Promise.reject(err('EIO')) : nodeFs.rename(a, b)),
  };
}

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.stop().catch(() => undefined);
  srv = undefined;
});

const create = (name: string) => srv!.req('POST', '/api/v1/content/listeners', { key: KEYS.editorW1, body: { name, source_type: 'x', query_config: { handle: name } } });
const temps = async (dir: string) => (await readdir(dir)).filter((f) => f.endsWith('.tmp'));
const figures: Record<string, unknown> = {};

describe('write errors on the journal: 503, nothing half-done, recovery', () => {
  it.each(['journal-write', 'journal-fsync', 'disk-full'] as const)('%s: 503 envelope, files intact, next write succeeds', async (step) => {
    const state = { fault: null as Step | null, hits: 0 };
    srv = await startFixtureServer({ fs: faultyFs(state) });
    const ok1 = await create('before');
    expect(ok1.status).toBe(200);
    const storeBytes = await readFile(srv.path);
    const journalBytes = await readFile(journalPathOf(srv.path));

    state.fault = step;
    const failed = await Promise.all([create('lost-1'), create('lost-2'), create('lost-3')]);
    // ENOSPC on the append is a full disk (an operator must make room); EIO on the fsync a failed write.
    const [cause, retryAfter] = step === 'journal-fsync' ? ['write_failed', '5'] : ['disk_full', '60'];
    for (const r of failed) {
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ success: false, error: 'Store unavailable', code: 'STORE_UNAVAILABLE', details: [{ path: 'cause', message: cause }] });
      expect(r.headers['retry-after']).toBe(retryAfter);
    }
    expect(state.hits).toBeGreaterThan(0);
    expect((await readFile(srv.path)).equals(storeBytes)).toBe(true);
    expect((await readFile(journalPathOf(srv.path))).equals(journalBytes)).toBe(true); // cut back to its last good length
    expect(await temps(srv.dir)).toEqual([]);

    state.fault = null;
    const ok2 = await create('after');
    expect(ok2.status).toBe(200);
    // A restart (clean: fold) and the content: acknowledged in, refused out.
    const { path } = srv;
    await srv.close();
    const reopened = await Store.open(path);
    const names = reopened.list('content_listeners').map((l) => l.name);
    await reopened.close();
    expect(names).toContain('before');
    expect(names).toContain('after');
    for (const n of ['lost-1', 'lost-2', 'lost-3']) expect(names).not.toContain(n);
    figures[step] = { status: failed.map((r) => r.status), injected: state.hits };
  });
});

describe('write errors while folding the journal into the snapshot', () => {
  it.each(['snapshot-write', 'snapshot-rename'] as const)('%s: writes stay acknowledged (journal), store file intact, temp gone, fold succeeds once the fault clears', async (step) => {
    const state = { fault: null as Step | null, hits: 0 };
    srv = await startFixtureServer({ fs: faultyFs(state), storeOptions: { journalMaxRecords: 3 } });
    const storeBytes = await readFile(srv.path);
    state.fault = step;
    const acked: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await create(`w${i}`);
      // The fold failed, but the write was already durable in the journal: acknowledged.
      expect(r.status).toBe(200);
      acked.push(r.json.data.id);
    }
    await srv.store.flush();
    await srv.store.compact();
    expect(state.hits).toBeGreaterThan(0);
    expect(srv.store.stats().foldFailures).toBeGreaterThan(0);
    expect((await readFile(srv.path)).equals(storeBytes)).toBe(true);
    expect(await temps(srv.dir)).toEqual([]);

    state.fault = null;
    expect((await create('after')).status).toBe(200);
    await srv.store.compact();
    expect(srv.store.stats().foldFailures).toBe(0);
    const onDisk = JSON.parse(await readFile(srv.path, 'utf8'));
    const ids = new Set(onDisk.content_listeners.map((l: { id: string }) => l.id));
    for (const id of acked) expect(ids.has(id)).toBe(true);
    expect(await temps(srv.dir)).toEqual([]);
    figures[step] = { writes: acked.length + 1, injected: state.hits, status: 200 };
    console.log(`disk-fault test: ${JSON.stringify(figures)}`);
  });
});

/**
 * The fs layer carries every file the server touches (src/server/store/fs-layer.ts): each
 * test below injects a fault (or watches the calls) through the layer only, so it fails if
 * that file's I/O goes around it.
 */
describe('faults injected through the layer reach the journal, the lock and the rate-limit counters', () => {
  const eio = (what: string) => Object.assign(new Error(`EIO: i/o error, ${what}`), { code: 'EIO' });

  it('journal: a read fault at open refuses the store (naming the journal), an append fault answers 503', async () => {
    const { path, cleanup } = await fixtureStore();
    try {
      const journal = journalPathOf(path);
      // The journal is read as a stream of chunks (replayed line by line, whatever its size).
      const failing: AsyncIterable<Buffer> = {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(eio('read')) }),
      };
      const readFault: StoreFs = { ...nodeFs, readChunks: (p) => (p === journal ? failing : nodeFs.readChunks(p)) };
      const refused = await Store.open(path, { fs: readFault }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StoreError);
      expect((refused as StoreError).message).toBe(`${journal}: cannot read (EIO: i/o error, read)`);
      expect(existsSync(lockPathOf(path))).toBe(false); // released on the way out

      let appends = 0;
      const appendFault: StoreFs = {
        ...nodeFs,
        open: async (p, flags, mode) => {
          const fh = await nodeFs.open(p, flags, mode);
          if (p !== journal || flags !== 'a') return fh;
          return {
            ...bind(fh),
            writeFile: async () => {
              appends++;
              throw eio('write');
            },
          };
        },
      };
      const store = await Store.open(path, { fs: appendFault });
      const write = store.commit([{ op: 'insert', collection: 'users', record: { id: 'u-fault', email: 'f@x.example', name: 'F' } }]);
      await expect(write).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(appends).toBe(1);
      await store.abandon();
    } finally {
      await cleanup();
    }
  });

  it('lock: taken and released through the layer; a fault there refuses the open and leaves no lock behind', async () => {
    const { path, cleanup } = await fixtureStore();
    try {
      const lock = lockPathOf(path);
      const calls: string[] = [];
      const watched: StoreFs = {
        ...nodeFs,
        sync: {
          ...nodeFs.sync,
          link: (a, b) => (calls.push(`link ${b}`), nodeFs.sync.link(a, b)),
          unlink: (p) => (calls.push(`unlink ${p}`), nodeFs.sync.unlink(p)),
        },
      };
      const store = await Store.open(path, { fs: watched });
      expect(calls).toContain(`link ${lock}`);
      await store.close();
      expect(calls).toContain(`unlink ${lock}`);

      const faulty: StoreFs = {
        ...nodeFs,
        sync: {
          ...nodeFs.sync,
          writeFile: () => {
            throw eio('write');
          },
        },
      };
      await expect(Store.open(path, { fs: faulty })).rejects.toMatchObject({ code: 'EIO' });
      expect(existsSync(lock)).toBe(false);
      expect((await readdir(dirname(path))).filter((f) => f.includes('.lock'))).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  it('rate-limit counters: read at start and written on stop through the layer', async () => {
    const { path, cleanup } = await fixtureStore();
    try {
      const sidecar = rateLimitFileOf(path);
      // On disk: the editor key's window is used up. Read through the layer, the read fails
      // (EIO): the server starts with no counts, so the request passes.
      const exhausted = JSON.stringify({ version: 1, windowMs: 3_600_000, windows: { [IDS.keyEditorW1]: { start: Date.now(), count: 99 } } }) + '\n';
      await writeFile(sidecar, exhausted);
      let writeFaults = 0;
      const fs: StoreFs = {
        ...nodeFs,
        rename: (a, b) => (b === sidecar ? (writeFaults++, Promise.reject(eio('rename'))) : nodeFs.rename(a, b)),
        sync: {
          ...nodeFs.sync,
          readFile: (p) => {
            if (p === sidecar) throw eio('read');
            return nodeFs.sync.readFile(p);
          },
        },
      };
      srv = await startFixtureServer({ storePath: path, fs, rateLimit: 5 });
      const res = await srv.req('GET', '/api/v1/finance/summary', { key: KEYS.editorW1 });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('4');
      await srv.close();
      srv = undefined;
      // The flush on stop went through the layer and failed there: the file is as it was, no temp left.
      expect(writeFaults).toBeGreaterThan(0);
      expect(await readFile(sidecar, 'utf8')).toBe(exhausted);
      expect(await temps(dirname(path))).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});

const bind = (fh: FileHandleLike): FileHandleLike => ({
  writeFile: (d) => fh.writeFile(d),
  sync: () => fh.sync(),
  truncate: (n) => fh.truncate(n),
  close: () => fh.close(),
});
