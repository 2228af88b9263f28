import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { lockPathOf } from '../../src/server/store/lock.js';
import { Store } from '../../src/server/store/store.js';
import { rateLimitFileOf } from '../../src/server/app/rate-limit.js';
import { KEYS, fixtureStore, request } from './helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { ensureBuilt } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';

/** Crash and signal behaviour of the BUILT server module (dist/) in a child process. */
beforeAll(() => ensureBuilt());
const cleanups = cleanupsAfterAll();

/** The built server module (rate limit `rateLimit`) over `storePath`. */
const spawnServer = (storePath: string, rateLimit?: number) => spawnServe(['--store', storePath], { module: rateLimit ? { rateLimit } : {} });

describe('durability and shutdown (decisions §7)', () => {
  it('acknowledged writes are in the store after kill -9', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const server = await spawnServer(store.path);
    const url = server.origin;
    const names = Array.from({ length: 40 }, (_, i) => `crash-${i}`);
    const acked = await Promise.all(
      names.map((name) =>
        request(url, 'POST', '/api/v1/content/listeners', {
          key: KEYS.editorW1,
          body: { name, source_type: 'x', query_config: { handle: name } },
        }),
      ),
    );
    expect(acked.every((r) => r.status === 200)).toBe(true);
    server.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    // The acknowledged writes are in the journal; reopening replays it over the snapshot.
    const reopened = await Store.open(store.path);
    const ids = new Set(reopened.list('content_listeners').map((l) => l.id));
    await reopened.close();
    for (const r of acked) expect(ids.has(r.json.data.id)).toBe(true);
    // and the clean close folded them into the store file itself
    const onDisk = JSON.parse(await readFile(store.path, 'utf8'));
    const folded = new Set(onDisk.content_listeners.map((l: { id: string }) => l.id));
    for (const r of acked) expect(folded.has(r.json.data.id)).toBe(true);
  });

  it('a stale lock left by kill -9 is taken over by the next server', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const first = await spawnServer(store.path);
    first.kill('SIGKILL');
    await first.exited;
    expect(existsSync(lockPathOf(store.path))).toBe(true);
    const second = await spawnServer(store.path);
    const res = await request(second.origin, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 });
    expect(res.status).toBe(200);
    expect((await second.stop()).code).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s: finishes, flushes counters, releases the lock, exits 0, logs without the key', async (signal) => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const server = await spawnServer(store.path, 50);
    const url = server.origin;
    for (let i = 0; i < 3; i++) expect((await request(url, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    // a second server on the same store is refused while this one runs
    const refused = await spawnServer(store.path).then(
      (s) => void cleanups.push(s.stop),
      (e: { exitCode?: number; stderr?: string }) => e,
    );
    expect(refused?.exitCode).toBe(1);
    expect(refused?.stderr).toMatch(/in use by another cr server/);
    server.kill(signal);
    expect((await server.exited).code).toBe(0);
    expect(existsSync(lockPathOf(store.path))).toBe(false);
    const counters = JSON.parse(await readFile(rateLimitFileOf(store.path), 'utf8'));
    expect(Object.values(counters.windows as Record<string, { count: number }>)[0]!.count).toBe(3);
    const log = server.stderr();
    expect(log).toMatch(/GET \/api\/v1\/finance\/summary 200 \d+ms key=cccccccc-0000-4000-8000-000000000003/);
    expect(log).not.toContain(KEYS.viewerW1);
  });
});
