import { afterEach, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { Store } from '../../src/server/store/store.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { FileHandleLike, StoreFs } from '../../src/server/store/fs-layer.js';
import { journalPathOf } from '../../src/server/store/journal.js';
import { KEYS, startFixtureServer } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Disk full and write errors (reliability item 3), injected through the store's fs layer:
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
    for (const r of failed) {
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ success: false, error: 'Store unavailable', code: 'STORE_UNAVAILABLE' });
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
