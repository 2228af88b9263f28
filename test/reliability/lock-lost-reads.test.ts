import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { runProcessSync } from '../helpers/process.js';
import { FIXTURE, IDS, KEYS, NOW, V, ensureBuilt, runBin, sleep, spawnServe } from './support.js';
import type { SpawnedServe } from './support.js';

/**
 * A server frozen past its lock's staleness, whose store another cr process took over
 * meanwhile, answers nothing from its old memory when it wakes up (docs/reliability.md "The
 * store's lock"): the built `cr serve` in a pid namespace of its own (only the heartbeat can
 * be judged then), SIGSTOP, `cr local keys revoke` takes the stale store over and revokes the
 * viewer's key, requests reach the frozen server's socket, SIGCONT. Those requests (the
 * revoked key's and another key's read) must not be answered 200; the server then exits 1
 * with one line saying why. The staleness is CR_LOCK_STALE_MS=500 in every process.
 * Bounded: 4 requests, 127.0.0.1 only.
 */
const STALE_MS = 500;
const LOCK_ENV = { CR_LOCK_STALE_MS: String(STALE_MS) };
const VIEWER_KEY_ID = 'cccccccc-0000-4000-8000-000000000003';

const unshareProblem = (() => {
  const r = runProcessSync('unshare', ['-pf', '--mount-proc', 'true'], { timeoutMs: 5_000 });
  return r.exitCode === 0 ? '' : `unshare -pf --mount-proc does not work here (${String(r.stderr || r.shortMessage || r.exitCode).split('\n')[0]}): needs root or user namespaces`;
})();
if (unshareProblem) console.warn(`lock-lost-reads: skipped: ${unshareProblem}`);

const VIA = ['unshare', '-pf', '--mount-proc', '--kill-child'];

/** The server's pid as seen from here: unshare's only child. */
const serverPid = (s: SpawnedServe) => Number(readFileSync(`/proc/${s.child.pid}/task/${s.child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);

/** A GET, answered or not: its status, its body's code, or the connection's error code. */
async function get(origin: string, path: string, key: string): Promise<{ status: number | string; code?: string }> {
  try {
    const res = await fetch(`${origin}${V}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string }; code?: string };
    return { status: res.status, code: body.error?.code ?? body.code };
  } catch (err) {
    return { status: ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? 'error' };
  }
}

const running: SpawnedServe[] = [];
afterAll(async () => {
  for (const s of running) s.kill('SIGKILL');
  cleanupTempDirs();
});

describe('a frozen server whose store was taken over', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it.skipIf(unshareProblem !== '')(
    'answers no read from its old memory, accepts no key revoked meanwhile, and exits 1 after draining',
    async () => {
      const dir = tempDir('cr-lock-lost-');
      const path = join(dir, 'store.json');
      copyFileSync(FIXTURE, path);
      const crEnv = { HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), CR_NOW: NOW, ...LOCK_ENV };
      const server = await spawnServe(['--store', path], { dir, env: LOCK_ENV, via: VIA });
      running.push(server);
      const pid = serverPid(server);
      const subjects = `/brand/brand-subjects?website_id=${IDS.W1}`;
      expect((await get(server.origin, subjects, KEYS.viewerW1)).status).toBe(200);

      process.kill(pid, 'SIGSTOP');
      let answers: Array<{ status: number | string; code?: string }>;
      try {
        await sleep(2 * STALE_MS); // the heartbeat is now older than the staleness
        const revoke = await runBin(['local', 'keys', 'revoke', VIEWER_KEY_ID, '--store', path], { env: crEnv, timeoutMs: 30_000 });
        expect(revoke.exitCode, revoke.stderr).toBe(0);
        // Sent while the server is stopped: they wait in its socket and are read first thing on waking,
        // before its heartbeat's timer could notice the loss.
        const pending = [get(server.origin, subjects, KEYS.viewerW1), get(server.origin, subjects, KEYS.editorW1), get(server.origin, `/intelligence/learnings?website_id=${IDS.W1}`, KEYS.adminW1)];
        await sleep(300);
        process.kill(pid, 'SIGCONT');
        answers = await Promise.all(pending);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      const exited = await Promise.race([server.exited, sleep(20_000).then(() => 'still running' as const)]);
      const summary = `${JSON.stringify(answers)}; stderr: ${server.stderr().slice(-2000)}`;
      // Every request sent meanwhile gets an answer, 503, none a reset connection (docs/reliability.md).
      for (const a of answers) expect(a, summary).toEqual({ status: 503, code: 'STORE_UNAVAILABLE' });
      expect(exited, summary).toEqual({ code: 1, signal: null });
      expect(server.stderr()).toContain('writes are refused from now on, reads too (503, lock_lost)');
      // A `cr local` command took it here, not a server.
      expect(server.stderr()).toContain('was taken over by another process');
      expect(server.stderr()).toMatch(/cr serve: stopping: .*store\.json is no longer this server's \(its lock was taken over\)/);
    },
    90_000,
  );
});
