import { afterEach, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { Store } from '../../src/server/store/store.js';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { StoreFs } from '../../src/server/store/fs-layer.js';
import { journalPathOf } from '../../src/server/store/journal.js';
import { KEYS, V, fixtureStore, mcpCall, startFixtureServer } from './support.js';
import type { TestServer } from '../server/helpers.js';

/**
 * The store under a write flood (docs/api-decisions.md §9): the query_config cap, the store size cap
 * (507 STORE_FULL) and folds that fail without stopping the server. Bounded: a 1 MiB store cap,
 * a few hundred small writes.
 */
let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.stop().catch(() => undefined);
  srv = undefined;
});

const listener = (name: string, query_config: Record<string, unknown>) => ({ name, source_type: 'google_news', query_config: { keywords: ['k'], ...query_config } as Record<string, unknown> });
const create = (body: unknown) => srv!.req('POST', `${V}/content/listeners`, { key: KEYS.editorW1, body });
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('query_config cap: 8 KiB of JSON, 32 keys at any level', () => {
  it('refuses a config over either cap with the 400 validation envelope (REST and MCP), accepts one at the caps', async () => {
    srv = await startFixtureServer();
    const refused = [
      listener('many', keys(40)),
      listener('nested', { deep: { a: keys(31) } }),
      listener('big', { blob: 'x'.repeat(9 * 1024) }),
      // The reproduction: ~1 MiB of extra keys in one create.
      listener('flood', { pad: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, 'y'.repeat(50_000)])) }),
    ];
    for (const body of refused) {
      const res = await create(body);
      expect(res.status, body.name).toBe(400);
      expect(res.json.error).toBe('Validation error');
      expect(res.json.code).toBe('BAD_REQUEST');
      expect(res.json.details.map((d: { path: string }) => d.path)).toEqual(['query_config']);
    }
    const mcp = await mcpCall(srv.url, `Bearer ${KEYS.editorW1}`, 'createContentListener', listener('mcp', keys(40)));
    expect(mcp.json.result.isError).toBe(true);
    expect(JSON.parse(mcp.json.result.content[0].text).details[0].path).toBe('query_config');

    // At the caps: 32 keys (keywords + 31) and JSON just under 8 KiB.
    expect((await create(listener('at-keys', keys(31)))).status).toBe(200);
    const atBytes = listener('at-bytes', { blob: '' });
    atBytes.query_config.blob = 'x'.repeat(8 * 1024 - JSON.stringify(atBytes.query_config).length);
    expect(JSON.stringify(atBytes.query_config).length).toBe(8 * 1024);
    expect((await create(atBytes)).status).toBe(200);
    const names = srv.store.list('content_listeners').map((l) => l.name);
    expect(names).toContain('at-keys');
    expect(names.filter((n) => ['many', 'nested', 'big', 'flood', 'mcp'].includes(n))).toEqual([]);
  });
});

describe('store size cap: 507 Store is full, the server alive, every acknowledged write kept', () => {
  it('--max-store-mb 1: writes past the cap get 507 STORE_FULL; reads still answer; a restart has every 200', async () => {
    const s = await fixtureStore();
    srv = await startFixtureServer({ storePath: s.path, maxStoreMb: 1, storeOptions: { journalMaxRecords: 50 } });
    const acknowledged: string[] = [];
    let full: { status: number; json: unknown } | undefined;
    for (let i = 0; i < 400 && !full; i++) {
      const res = await create(listener(`fill-${i}`, { blob: 'z'.repeat(7000) }));
      if (res.status === 200) acknowledged.push(res.json.data.id);
      else full = res;
    }
    expect({ status: full?.status, json: full?.json }).toEqual({ status: 507, json: { success: false, error: 'Store is full', code: 'STORE_FULL' } });
    // Past the cap by at most one write's worth, measured without serialising the store.
    expect(srv.store.sizeEstimate()).toBeLessThanOrEqual(1024 * 1024);
    expect(acknowledged.length).toBeGreaterThan(100);
    console.log(`store cap: ${acknowledged.length} writes acknowledged, then 507 at ~${srv.store.sizeEstimate()} bytes (cap ${1024 * 1024})`);
    expect((await create(listener('after', { blob: 'z'.repeat(7000) }))).status).toBe(507);
    const read = await srv.req('GET', `${V}/finance/summary`, { key: KEYS.adminW1 });
    expect(read.status).toBe(200);
    await srv.close();
    srv = undefined;
    // The stop folded the journal into the snapshot (written indented): the file is within the cap.
    expect((await stat(s.path)).size).toBeLessThanOrEqual(1024 * 1024);

    const reopened = await Store.open(s.path);
    try {
      const ids = new Set(reopened.list('content_listeners').map((l) => l.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await reopened.close();
      await s.cleanup();
    }
  });

  it('small records of many fields: the estimate counts each write as the snapshot writes it, so a fold stays within the cap', async () => {
    // Indenting a record costs ~8 bytes a field: with short fields the snapshot is far larger than the journal.
    const s = await fixtureStore();
    const cap = 256 * 1024;
    const store = await Store.open(s.path, { maxStoreBytes: cap, journalMaxRecords: 50 });
    try {
      let accepted = 0;
      let refused: unknown;
      for (let i = 0; i < 5000 && !refused; i++) {
        const record = { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, ...Object.fromEntries(Array.from({ length: 20 }, (_, f) => [`f${f}`, f])) };
        await store.commit([{ op: 'insert', collection: 'content_listeners', record }]).then(
          () => accepted++,
          (err: unknown) => (refused = err),
        );
      }
      expect((refused as Error | undefined)?.name).toBe('StoreFullError');
      expect(accepted).toBeGreaterThan(100);
      await store.compact();
      expect((await stat(s.path)).size).toBeLessThanOrEqual(cap);
      // Near the cap: the estimate is not so cautious that the cap is far from reached.
      expect((await stat(s.path)).size).toBeGreaterThan(cap * 0.97);
    } finally {
      await store.close();
      await s.cleanup();
    }
  });
});

describe('a fold that fails never stops the server', () => {
  it('the notice names who holds the store: cr --local for the server a command runs in-process', async () => {
    const s = await fixtureStore();
    const notices: string[] = [];
    srv = await startFixtureServer({ storePath: s.path, notice: (l) => notices.push(l), storeOptions: { journalMaxRecords: 1 }, lockLabel: 'cr --local' });
    (srv.store.data.users as unknown[]).push({ id: 'poison', email: 'p@example.com', name: 'x', big: 1n });
    expect((await create(listener('during', {}))).status).toBe(200);
    await srv.store.compact();
    expect(notices[0]).toMatch(/^cr --local: folding the journal into .*store\.json failed/);
    (srv.store.data.users as unknown[]).pop();
    await srv.close();
    srv = undefined;
    await s.cleanup();
  });

  it('serialisation throws on every fold: writes acknowledged, one short log line, journal replayed after a restart', async () => {
    const s = await fixtureStore();
    const notices: string[] = [];
    srv = await startFixtureServer({ storePath: s.path, notice: (l) => notices.push(l), storeOptions: { journalMaxRecords: 1 } });
    // A value JSON cannot write, put in memory only: every snapshot serialisation throws
    // (as `RangeError: Invalid string length` does past V8's limit). The journal is unaffected.
    const poison = { id: 'poison', email: 'p@example.com', name: 'x'.repeat(10_000), big: 1n };
    (srv.store.data.users as unknown[]).push(poison);
    const storeBytes = await readFile(s.path);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await create(listener(`during-${i}`, {}));
      expect(res.status).toBe(200);
      ids.push(res.json.data.id);
    }
    await srv.store.compact(); // forced: fails too, and is not logged again
    expect(srv.store.stats().foldFailures).toBeGreaterThanOrEqual(2);
    expect((await srv.req('GET', `${V}/content/nurture-sequences`, { key: KEYS.adminW1 })).status).toBe(200);
    expect((await readFile(s.path)).equals(storeBytes)).toBe(true);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^cr serve: folding the journal into .*store\.json failed \(TypeError: .*BigInt.*\); the journal keeps every write; retrying with backoff$/);
    expect(notices[0]!.length).toBeLessThan(400);

    // The fault clears: the next fold works and says so once.
    (srv.store.data.users as unknown[]).pop();
    await srv.store.compact();
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatch(/folded into .* again after \d+ failed attempt/);

    // Poisoned again through a clean stop: the stop's fold fails, the journal keeps the writes.
    (srv.store.data.users as unknown[]).push(poison);
    const late = await create(listener('late', {}));
    expect(late.status).toBe(200);
    ids.push(late.json.data.id);
    await srv.close();
    srv = undefined;
    const reopened = await Store.open(s.path);
    try {
      const have = new Set(reopened.list('content_listeners').map((l) => l.id));
      expect(ids.filter((id) => !have.has(id))).toEqual([]);
      expect(reopened.list('users').some((u) => u.id === 'poison')).toBe(false);
    } finally {
      await reopened.close();
      await s.cleanup();
    }
  });

  it('a restart replays a journal of many MiB line by line (never read whole), lines spanning read chunks', async () => {
    const s = await fixtureStore();
    const journal = journalPathOf(s.path);
    const wholeReads: string[] = [];
    const fs: StoreFs = { ...nodeFs, readFile: (p) => (p === journal && wholeReads.push(p) ? nodeFs.readFile(p) : nodeFs.readFile(p)) };
    const store = await Store.open(s.path, { fs, journalMaxBytes: 1 << 30, journalMaxRecords: 1 << 30 });
    const ids: string[] = [];
    const pad = 'q'.repeat(7000);
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 25 }, (_, i) => {
          const id = `00000000-0000-4000-8000-${String(round * 100 + i).padStart(12, '0')}`;
          ids.push(id);
          return store.commit([
            {
              op: 'insert',
              collection: 'learnings',
              record: {
                id,
                websiteId: 'w',
                channel: 'c',
                dimensionType: 'd',
                dimensionValue: 'v',
                summary: pad,
                evidenceCount: 1,
                confidenceScore: 0.5,
                status: 'active',
                createdAt: '2025-01-01T00:00:00Z',
              },
            },
          ]);
        }),
      );
    }
    expect(store.stats().journalBytes).toBeGreaterThan(3 * 1024 * 1024);
    console.log(`streamed replay: journal ${store.stats().journalBytes} bytes, ${ids.length} writes`);
    await store.abandon(); // as a crash would: the journal holds everything
    const reopened = await Store.open(s.path, { fs });
    try {
      const have = new Set(reopened.list('learnings').map((l) => l.id));
      expect(ids.filter((id) => !have.has(id))).toEqual([]);
      expect(reopened.stats().journalRecords).toBe(ids.length);
      expect(wholeReads).toEqual([]);
    } finally {
      await reopened.close();
      await s.cleanup();
    }
  });
});
