import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPathOf } from '../../src/server/store/lock.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { runProcessSync } from '../helpers/process.js';
import { FIXTURE, KEYS, NOW, V, ensureBuilt, keepAliveClient, listenerBody, runBin, sleep, spawnServe, stopServe, storedListenerIds } from './support.js';
import type { SpawnedServe } from './support.js';

/**
 * No write answered 200 is lost when a frozen server's store is taken over
 * (docs/reliability.md "The store's lock"). The built `cr serve` takes keep-alive writes
 * from 64 clients on 127.0.0.1; it is frozen with SIGSTOP; `cr --local listeners create`
 * runs on the same store; the server is let go with SIGCONT. Every create answered 200 must
 * be in the store afterwards.
 *
 * - same pid namespace: the lock records the holder's start time, so the frozen server keeps
 *   its store, and `--local` sends its request to it (answered once it runs again).
 * - the server in another pid namespace (`unshare -pf --mount-proc`, as root): only the
 *   heartbeat can be judged, so `--local` takes the store over once it is stale; the server,
 *   woken up, must answer 503 for whatever it journals after that, never 200.
 *
 * The staleness is shortened through CR_LOCK_STALE_MS (passed to every process), so nothing
 * waits out the default 10 s. Bounded: at most MAX_WRITES requests, 64 at a time.
 */
const STALE_MS = 500;
const CLIENTS = 64;
const MAX_WRITES = 20_000;
const LOCK_ENV = { CR_LOCK_STALE_MS: String(STALE_MS) };
// Above what the load can send: at the default 1,000 an hour the key ran out before the freeze
// (every answer around the takeover a 429), and nothing was journaled after the wake-up.
const RATE_LIMIT = String(10 * MAX_WRITES);

const unshareProblem = (() => {
  const r = runProcessSync('unshare', ['-pf', '--mount-proc', 'true'], { timeoutMs: 5_000 });
  return r.exitCode === 0 ? '' : `unshare -pf --mount-proc does not work here (${String(r.stderr || r.shortMessage || r.exitCode).split('\n')[0]}): needs root or user namespaces`;
})();
if (unshareProblem) console.warn(`lock-freeze (other pid namespace): skipped: ${unshareProblem}`);

const VIA = ['unshare', '-pf', '--mount-proc', '--kill-child'];

/** The server's pid as seen from here (unshare's only child, or the process itself). */
function serverPid(s: SpawnedServe, via: boolean): number {
  const pid = s.child.pid!;
  if (!via) return pid;
  return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);
}

/** Keeps CLIENTS keep-alive writers busy until stopped; counts what each answer was. */
function writeLoad(origin: string) {
  const client = keepAliveClient(origin, CLIENTS);
  const acked: string[] = [];
  const statuses = new Map<number | string, number>();
  const count = (k: number | string) => statuses.set(k, (statuses.get(k) ?? 0) + 1);
  let sent = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && sent < MAX_WRITES) {
      const name = `load ${sent++}`;
      try {
        const res = await client.send('POST', `${V}/content/listeners`, {
          headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...listenerBody, name }),
        });
        count(res.status);
        if (res.status === 200) acked.push(res.json.data.id as string);
      } catch (err) {
        count((err as NodeJS.ErrnoException).code ?? 'error');
        await sleep(10);
      }
    }
  };
  const workers = Promise.all(Array.from({ length: CLIENTS }, worker));
  return {
    acked,
    statuses,
    stop: async () => {
      stopped = true;
      await workers;
      client.close();
    },
  };
}

/** A signal to a process that may have exited on its own (a server whose store was taken over drains and exits 1). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    /* gone already */
  }
}

const running: SpawnedServe[] = [];
afterAll(async () => {
  for (const s of running) s.kill('SIGKILL');
  cleanupTempDirs();
});

async function freezeAndTakeOver(otherNamespace: boolean) {
  const dir = tempDir('cr-lock-freeze-');
  const path = join(dir, 'store.json');
  copyFileSync(FIXTURE, path);
  const crEnv = { HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), CR_STORE: path, CR_NOW: NOW, ...LOCK_ENV };
  // --local's own key, made while no server holds the store (it can send to a server with it).
  const first = await runBin(['--local', 'brand', 'subjects', '--json'], { env: crEnv });
  expect(first.exitCode, first.stderr).toBe(0);

  const server = await spawnServe(['--store', path, '--rate-limit', RATE_LIMIT], { dir, env: LOCK_ENV, via: otherNamespace ? VIA : undefined });
  running.push(server);
  const pid = serverPid(server, otherNamespace);
  const holder = JSON.parse(readFileSync(lockPathOf(path), 'utf8'));
  const load = writeLoad(server.origin);
  let local: Awaited<ReturnType<typeof runBin>>;
  try {
    await sleep(400);
    process.kill(pid, 'SIGSTOP');
    await sleep(2 * STALE_MS); // the heartbeat is now older than the staleness
    const localRun = runBin(['--local', 'listeners', 'create', '--name', 'while frozen', '--source', 'rss', '--query', 'feed_url=https://feed.example/rss', '--json'], {
      env: crEnv,
      timeoutMs: 30_000,
    });
    // Another namespace: --local takes the store over and finishes while the server is stopped.
    // The same one: it sends to the frozen server, which answers once let go.
    if (otherNamespace) local = await localRun;
    else await sleep(2 * STALE_MS);
    signal(pid, 'SIGCONT');
    local ??= await localRun;
    await sleep(500); // the woken server answers what it had, and more
  } finally {
    signal(pid, 'SIGCONT');
    await load.stop();
  }
  // In another namespace, SIGTERM goes to the server itself: unshare, waiting for its child,
  // would let the stop run into its 5 s SIGKILL fallback (test/helpers/serve.ts).
  // It may have stopped on its own already: a server whose store was taken over drains and exits 1.
  if (otherNamespace) signal(pid, 'SIGTERM');
  const stopped = await stopServe(server);
  const ids = await storedListenerIds(path);
  const missing = load.acked.filter((id) => !ids.has(id));
  const summary = `${load.acked.length} acknowledged, ${missing.length} missing; answers ${JSON.stringify(Object.fromEntries(load.statuses))}`;
  console.log(`lock-freeze (${otherNamespace ? 'other pid namespace' : 'same pid namespace'}): ${summary}`);
  expect(local.exitCode, local.stderr).toBe(0);
  expect(load.acked.length).toBeGreaterThan(0);
  expect(load.statuses.get(429), summary).toBeUndefined();
  expect(missing, summary).toEqual([]);
  return { local, server, stopped, holder, ids, path, statuses: load.statuses, summary };
}

describe('a frozen server and a takeover of its store', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('same pid namespace: the frozen server keeps its store (start time in the lock), --local goes to it, no acknowledged write is lost', async () => {
    const r = await freezeAndTakeOver(false);
    expect(r.holder.pidStart).toMatch(/^\d+$/);
    expect(r.local.stderr).toContain(`sending to cr serve on port ${r.server.port}`);
    expect(r.server.stderr()).not.toContain('writes are refused from now on');
    expect(r.stopped.code, r.server.stderr()).toBe(0);
  }, 90_000);

  it.skipIf(unshareProblem !== '')(
    'another pid namespace: --local takes the stale store over; the woken server answers 503, never 200, for what it journals after that',
    async () => {
      const r = await freezeAndTakeOver(true);
      expect(r.local.stderr).toContain('embedded server over');
      expect(r.server.stderr()).toContain('writes are refused from now on');
      // Writes reached the woken server after the takeover, and were refused.
      expect(r.statuses.get(503), r.summary).toBeGreaterThan(0);
      const made = JSON.parse(r.local.stdout) as { data?: { id?: string }; id?: string };
      expect(r.ids.has((made.data?.id ?? made.id)!)).toBe(true);
    },
    90_000,
  );
});
