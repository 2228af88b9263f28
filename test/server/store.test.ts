import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile, readdir, stat } from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store, StoreError, StoreLockedError, StoreUnavailableError } from '../../src/server/store/store.js';
import { parseStoreText } from '../../src/server/store/validate-store.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { StoreFs } from '../../src/server/store/fs-layer.js';
import { lockPathOf, processIdentity } from '../../src/server/store/lock.js';
import { journalPathOf } from '../../src/server/store/journal.js';
import type { FileHandleLike } from '../../src/server/store/fs-layer.js';
import { startServer } from '../../src/server/serve.js';
import { COLLECTION_NAMES } from '../../src/server/store/collections.js';
import { FIXTURE, KEYS, fixtureStore, startFixtureServer, tempDir } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
const bindHandle = (fh: FileHandleLike): FileHandleLike => ({
  writeFile: (d) => fh.writeFile(d),
  sync: () => fh.sync(),
  truncate: (n) => fh.truncate(n),
  close: () => fh.close(),
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function storeFile(content?: string) {
  const s = await fixtureStore(content);
  cleanups.push(s.cleanup);
  return s;
}

const listener = (id: string) => ({
  id,
  websiteId: 'w',
  name: id,
  sourceType: 'rss',
  queryConfig: {},
  pollInterval: '1h',
  nextPollAt: null,
  lastPolledAt: null,
  lastItemCount: 0,
  enabled: true,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
});

describe('loading and validation (decisions §7)', () => {
  it('the fixture is valid and keeps unknown fields', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path);
    cleanups.push(() => store.close());
    expect(store.get('business_entities', 'e0000000-0000-4000-8000-000000000001')).toMatchObject({ legacy_code: 'kept-and-ignored' });
    expect(store.list('visibility_scans')).toHaveLength(2);
  });

  it.each([
    ['empty', '', /store\.json: file is empty/],
    ['whitespace only', '  \n', /file is empty/],
    ['corrupt JSON', '{"version": 1, "users": [', /store\.json: not valid JSON/],
    ['not an object', '[1,2]', /expected a JSON object/],
    ['wrong version', '{"version": 2}', /store\.json: version: /],
    [
      'wrong field type',
      JSON.stringify({
        version: 1,
        business_entities: [0, 1]
          .map((i) => ({ id: `e${i}`, name: 'n', accounting_tenant_id: null, owner_id: 'u', created_at: 'x' }))
          .concat([{ id: 'e', name: 'n', accounting_tenant_id: null, owner_id: 7 as never, created_at: 'x' }]),
      }),
      /store\.json: business_entities\[2\]\.owner_id: expected string, got number/,
    ],
    ['missing field', JSON.stringify({ version: 1, users: [{ id: 'u', email: 'e' }] }), /users\[0\]\.name: expected string, got nothing/],
    ['collection not an array', JSON.stringify({ version: 1, learnings: {} }), /learnings: expected array/],
    [
      'bad enum',
      JSON.stringify({ version: 1, social_posts: [{ id: 'p', websiteId: 'w', status: 'lost', content: '', scheduledAt: null, createdAt: 'x', updatedAt: 'x' }] }),
      /social_posts\[0\]\.status: expected one of/,
    ],
    [
      'key with both scopes',
      JSON.stringify({ version: 1, api_keys: [{ id: 'k', name: 'n', key_sha256: 'a'.repeat(64), user_id: 'u', role: 'admin', website_id: 'w', agency_id: 'a', created_at: 'x', revoked_at: null }] }),
      /api_keys\[0\]\.website_id: exactly one/,
    ],
  ])('%s file: refused with file and path named, left byte-identical, lock released', async (_name, content, message) => {
    const { path } = await storeFile(content);
    const before = await readFile(path);
    const err = await Store.open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toContain(path);
    expect((await readFile(path)).equals(before)).toBe(true);
    expect(existsSync(lockPathOf(path))).toBe(false);
    // and the server refuses to start over it
    await expect(startServer({ storePath: path, port: 0, log: false })).rejects.toThrow(StoreError);
    expect((await readFile(path)).equals(before)).toBe(true);
  });

  it('every collection may be absent', () => {
    const data = parseStoreText('s.json', '{"version":1}');
    for (const c of COLLECTION_NAMES) expect(data[c]).toEqual([]);
  });

  it('a missing file is created (with its folder) as a valid empty store', async () => {
    const dir = await tempDir();
    const path = join(dir, 'nested', 'store.json');
    const store = await Store.open(path);
    await store.close();
    const parsed = JSON.parse(await readFile(path, 'utf8'));
    expect(parsed.version).toBe(1);
    expect(parsed.users).toEqual([]);
    expect((await stat(path)).mode & 0o077).toBe(0);
  });
});

describe('single-writer lock', () => {
  it('a second server on the same store refuses to start, saying so', async () => {
    const first = await startFixtureServer();
    cleanups.push(() => first.stop());
    const err = await startServer({ storePath: first.path, port: 0, log: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as Error).message).toMatch(/in use by another cr server \(pid \d+/);
    expect((err as Error).message).toContain(first.path);
    // the first one is unaffected
    const res = await first.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 });
    expect(res.status).toBe(200);
  });

  it('the lock is released on close, and a stale lock (dead pid) is taken over', async () => {
    const { path } = await storeFile();
    const s = await Store.open(path);
    expect(existsSync(lockPathOf(path))).toBe(true);
    await s.close();
    expect(existsSync(lockPathOf(path))).toBe(false);
    // Written in this pid namespace: a dead pid is stale at once (other namespaces: lock-heartbeat.test.ts).
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: '2020-01-01T00:00:00Z', ...processIdentity(nodeFs.sync) }));
    const s2 = await Store.open(path);
    expect(JSON.parse(await readFile(lockPathOf(path), 'utf8')).pid).toBe(process.pid);
    await s2.close();
  });
});

describe('durable writes and group commit', () => {
  it('writes that arrive together share one commit (one journal line, one fsync); all are acknowledged after it', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path);
    cleanups.push(() => store.close());
    const before = store.stats();
    await Promise.all(Array.from({ length: 25 }, (_, i) => store.commit([{ op: 'insert', collection: 'content_listeners', record: listener(`g${i}`) }])));
    const after = store.stats();
    expect(after.commits - before.commits).toBe(1);
    expect(after.fsyncs - before.fsyncs).toBe(1);
    const journal = (await readFile(journalPathOf(path), 'utf8')).trim().split('\n');
    expect(journal).toHaveLength(2); // header + one group
    expect(JSON.parse(journal[1]!.slice(9)).g).toHaveLength(25);
    expect(store.get('content_listeners', 'g24')).toMatchObject({ name: 'g24' });
    await store.close(); // a clean close folds the journal into the store file
    const onDisk = JSON.parse(await readFile(path, 'utf8'));
    expect(onDisk.content_listeners.filter((l: any) => l.id.startsWith('g'))).toHaveLength(25);
    expect((await readdir(join(path, '..'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('readers see a write only once its fsync returned, and never one whose fsync failed', async () => {
    const { path } = await storeFile();
    // Once armed, the journal's fsync waits for the test to let it go (or fail it).
    const gates: { release: (err?: Error) => void }[] = [];
    let armed = false;
    const gatedFs: StoreFs = {
      ...nodeFs,
      open: async (p, flags, mode) => {
        const fh = bindHandle(await nodeFs.open(p, flags, mode));
        if (flags !== 'a') return fh;
        return {
          ...fh,
          sync: () =>
            !armed
              ? fh.sync()
              : new Promise<void>((resolve, reject) => {
                  gates.push({ release: (err) => (err ? reject(err) : fh.sync().then(resolve, reject)) });
                }),
        };
      },
    };
    const store = await Store.open(path, { fs: gatedFs });
    cleanups.push(() => store.close());
    armed = true;
    const count = store.list('content_listeners').length;
    const waitForGate = async () => {
      while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
      return gates.shift()!;
    };

    const first = store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('pending') }]);
    const gate = await waitForGate();
    expect(store.get('content_listeners', 'pending')).toBeUndefined();
    expect(store.list('content_listeners')).toHaveLength(count);
    const generation = store.generation;
    gate.release();
    await first;
    expect(store.get('content_listeners', 'pending')).toMatchObject({ name: 'pending' });
    expect(store.list('content_listeners')).toHaveLength(count + 1);
    expect(store.generation).toBe(generation + 1);

    const second = store.commit([{ op: 'patch', collection: 'content_listeners', id: 'pending', patch: { name: 'renamed' } }]);
    (await waitForGate()).release(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    // The store cuts the journal back and fsyncs that before it answers: let those through.
    armed = false;
    while (gates.length) gates.shift()!.release();
    await expect(second).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(store.get('content_listeners', 'pending')).toMatchObject({ name: 'pending' });
    expect(store.generation).toBe(generation + 1);
    await store.commit([{ op: 'patch', collection: 'content_listeners', id: 'pending', patch: { name: 'third' } }]);
    expect(store.get('content_listeners', 'pending')).toMatchObject({ name: 'third' });
  });

  it('a patch of an unknown id fails alone, without sinking its group', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path);
    cleanups.push(() => store.close());
    const results = await Promise.allSettled([
      store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('ok') }]),
      store.commit([{ op: 'patch', collection: 'social_posts', id: 'nope', patch: { status: 'draft' } }]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(store.get('content_listeners', 'ok')).toBeDefined();
  });

  it.each(['writeFile', 'sync'] as const)('ENOSPC/EIO at journal %s: error, memory rolled back, journal cut back, store file unchanged', async (step) => {
    const { path, dir } = await storeFile();
    let fail = false;
    const boom = () => Object.assign(new Error(step === 'sync' ? 'EIO: i/o error' : 'ENOSPC: no space left on device'), { code: step === 'sync' ? 'EIO' : 'ENOSPC' });
    const fs: StoreFs = {
      ...nodeFs,
      open: async (p, flags, mode) => {
        const fh = await nodeFs.open(p, flags, mode);
        if (flags !== 'a') return fh;
        return {
          // a failing write may still land on disk: the store must cut it back
          writeFile: async (d) => (fail && step === 'writeFile' ? fh.writeFile(d).then(() => Promise.reject(boom())) : fh.writeFile(d)),
          sync: async () => (fail && step === 'sync' ? Promise.reject(boom()) : fh.sync()),
          truncate: (n) => fh.truncate(n),
          close: () => fh.close(),
        };
      },
    };
    const store = await Store.open(path, { fs });
    cleanups.push(() => store.close());
    await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('before') }]);
    const committed = await readFile(path);
    const journalBefore = await readFile(journalPathOf(path));
    fail = true;
    const err = await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('lost') }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(store.get('content_listeners', 'lost')).toBeUndefined();
    expect(store.get('content_listeners', 'before')).toBeDefined();
    expect((await readFile(path)).equals(committed)).toBe(true);
    expect((await readFile(journalPathOf(path))).equals(journalBefore)).toBe(true);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    fail = false;
    await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('after') }]);
    await store.close();
    const ids = JSON.parse(await readFile(path, 'utf8')).content_listeners.map((l: any) => l.id);
    expect(ids).toContain('after');
    expect(ids).toContain('before');
    expect(ids).not.toContain('lost');
  });

  it.each([
    ['EIO', 'write_failed', '5'],
    ['ENOSPC', 'disk_full', '60'],
  ])('a failed commit (%s) answers 503 STORE_UNAVAILABLE over HTTP, cause %s', async (code, cause, retryAfter) => {
    const { path } = await storeFile();
    let fail = false;
    const fs: StoreFs = {
      ...nodeFs,
      open: async (p, flags, mode) => {
        const fh = await nodeFs.open(p, flags, mode);
        return flags === 'a' ? { ...bindHandle(fh), sync: () => (fail ? Promise.reject(Object.assign(new Error(code), { code })) : fh.sync()) } : fh;
      },
    };
    const srv = await startFixtureServer({ storePath: path, fs });
    cleanups.push(() => srv.close());
    fail = true;
    const res = await srv.req('POST', '/api/v1/content/listeners', { key: KEYS.editorW1, body: { name: 'x', source_type: 'x', query_config: { handle: 'h' } } });
    expect(res.status).toBe(503);
    // The cause as the envelope's one detail, and when to ask again (docs/api-decisions.md §1).
    expect(res.json).toEqual({ success: false, error: 'Store unavailable', code: 'STORE_UNAVAILABLE', details: [{ path: 'cause', message: cause }] });
    expect(res.headers['retry-after']).toBe(retryAfter);
  });

  it('unknown fields survive a rewrite', async () => {
    const { path } = await storeFile();
    const raw = JSON.parse(await readFile(FIXTURE, 'utf8'));
    raw.custom_top_level = { keep: true };
    await writeFile(path, JSON.stringify(raw));
    const store = await Store.open(path);
    await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('x') }]);
    await store.close();
    const after = JSON.parse(await readFile(path, 'utf8'));
    expect(after.custom_top_level).toEqual({ keep: true });
    expect(after.business_entities.find((e: any) => e.name === 'Acme Studio').legacy_code).toBe('kept-and-ignored');
  });
});

describe('the journal (decisions §7: append-only, replayed at start, folded)', () => {
  it('replays acknowledged writes after a crash, drops a torn last line, refuses a damaged middle line naming file and line', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path);
    for (const id of ['j1', 'j2', 'j3']) await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener(id) }]);
    expect(store.stats()).toMatchObject({ commits: 3, journalRecords: 3, snapshots: 0 });
    await store.abandon(); // a crash: no fold
    const journal = journalPathOf(path);
    await writeFile(journal, (await readFile(journal, 'utf8')) + '0123abcd {"seq":4,"g":[[{"op":"ins');
    const again = await Store.open(path);
    expect(again.list('content_listeners').map((l) => l.id)).toEqual(expect.arrayContaining(['j1', 'j2', 'j3']));
    await again.abandon();
    // flip one byte inside line 3 (the second group): lines after it are whole → corruption
    const lines = (await readFile(journal, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('j2', 'j9');
    await writeFile(journal, lines.join('\n'));
    const before = await readFile(journal);
    const err = await Store.open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toContain(`${journal}: line 3: checksum mismatch`);
    expect((await readFile(journal)).equals(before)).toBe(true);
    expect(existsSync(lockPathOf(path))).toBe(false);
  });

  it('a journal holding writes for another version of the store file is refused, not replayed over it', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path);
    await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener('pending') }]);
    await store.abandon();
    await writeFile(path, await readFile(FIXTURE, 'utf8').then((t) => t.replace('Acme Dental', 'Acme Dentistry')));
    const err = await Store.open(path).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/store\.json\.journal: holds 1 acknowledged group commit\(s\) made after a different version/);
  });

  it('folds past the threshold in the background and on close; the store file always holds a sealed snapshot', async () => {
    const { path } = await storeFile();
    const store = await Store.open(path, { journalMaxRecords: 5 });
    for (let i = 0; i < 12; i++) await store.commit([{ op: 'insert', collection: 'content_listeners', record: listener(`f${i}`) }]);
    await store.compact();
    expect(store.stats().snapshots).toBeGreaterThanOrEqual(2);
    expect(store.stats().journalRecords).toBe(0);
    await store.close();
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('{\n  "checksum": "crc32:')).toBe(true);
    expect(JSON.parse(text).content_listeners.map((l: any) => l.id)).toEqual(expect.arrayContaining(['f0', 'f11']));
    expect(existsSync(`${path}.bak.1`) && existsSync(`${path}.bak.2`)).toBe(true);
  });
});
