import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lockPathOf } from '../../src/server/store/lock.js';
import { Store } from '../../src/server/store/store.js';
import { rateLimitFileOf } from '../../src/server/rate-limit.js';
import { KEYS, fixtureStore, request } from './helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/** Crash and signal behaviour of the BUILT server (dist/) in a child process. */
const _ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/serve-child.mjs', import.meta.url));

// dist/ is built once by test/global-setup.ts before any test file runs.
beforeAll(() => {
  if (!existsSync(new URL('../../dist/src/server/serve.js', import.meta.url))) throw new Error('dist/src/server/serve.js missing: run `npm run build`');
});

const cleanups = cleanupsAfterAll();

async function spawnServer(storePath: string, rateLimit?: number): Promise<{ child: ResultPromise; url: string; stderr: () => string }> {
  const child = execa('node', [CHILD, storePath, ...(rateLimit ? [String(rateLimit)] : [])], {
    env: { CR_NOW: '2025-06-15T12:00:00Z' },
    reject: false,
    buffer: false,
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err };
}

describe('durability and shutdown (decisions §7)', () => {
  it('acknowledged writes are in the store after kill -9', async () => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const { child, url } = await spawnServer(store.path);
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
    child.kill('SIGKILL');
    const result = await child;
    expect(result.signal).toBe('SIGKILL');
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
    first.child.kill('SIGKILL');
    await first.child;
    expect(existsSync(lockPathOf(store.path))).toBe(true);
    const second = await spawnServer(store.path);
    const res = await request(second.url, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 });
    expect(res.status).toBe(200);
    second.child.kill('SIGTERM');
    expect((await second.child).exitCode).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s: finishes, flushes counters, releases the lock, exits 0, logs without the key', async (signal) => {
    const store = await fixtureStore();
    cleanups.push(store.cleanup);
    const { child, url, stderr } = await spawnServer(store.path, 50);
    for (let i = 0; i < 3; i++) expect((await request(url, 'GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 })).status).toBe(200);
    // a second server on the same store is refused while this one runs
    const refused = await execa('node', [CHILD, store.path], { reject: false, timeout: 10_000 });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/in use by another cr server/);
    child.kill(signal);
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(existsSync(lockPathOf(store.path))).toBe(false);
    const counters = JSON.parse(await readFile(rateLimitFileOf(store.path), 'utf8'));
    expect(Object.values(counters.windows as Record<string, { count: number }>)[0]!.count).toBe(3);
    const log = stderr();
    expect(log).toMatch(/GET \/api\/v1\/finance\/summary 200 \d+ms key=cccccccc-0000-4000-8000-000000000003/);
    expect(log).not.toContain(KEYS.viewerW1);
  });
});
