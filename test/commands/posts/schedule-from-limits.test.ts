import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { EDITOR_2, cliEnv, crAt, csvPlan, ids, jsonLines, startBulkServer } from '../../bulk/support.js';
import { spawnBin } from '../../helpers/cli.js';
import { parseFaults } from '../../../src/server/app/faults.js';
import { onPostgres } from '../../helpers/store-under-test.js';

afterAll(() => cleanupTempDirs());

const stateLines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; status: string })
    : [];

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('cr posts schedule --from against a real server with a budget and faults', () => {
  it('a plan larger than the budget (--rate-limit 50) sends exactly the budget, exit 7; after the reset a rerun with --state sends only the rest', async () => {
    let t = Date.now();
    const srv = await startBulkServer(60, { rateLimit: 50, realClock: () => t });
    try {
      const dir = tempDir('cr-bulk-');
      const file = csvPlan(dir, ids(60));
      const state = join(dir, 'state.jsonl');
      const r = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--state', state, '--json', '--concurrency', '8']);
      expect(r.exitCode).toBe(7);
      expect(srv.requests()).toHaveLength(50);
      expect(srv.requests().every((q) => q.status === 200)).toBe(true);
      const rows = jsonLines(r.stdout);
      expect(rows.filter((l) => l.status === 'not_sent')).toHaveLength(10);
      expect(rows.filter((l) => l.status === 'not_sent').every((l) => l.code === 'RATE_LIMITED' && l.exit === 7)).toBe(true);
      expect(r.stderr).toContain('50 scheduled, 0 skipped, 0 failed, 10 not sent');

      t += 3_600_000; // the server's window resets
      await srv.ageWindows(3_600_000);
      const again = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--state', state, '--json']);
      expect(again.exitCode).toBe(0);
      const second = srv
        .requests()
        .slice(50)
        .map((q) => q.id);
      expect(second).toHaveLength(10);
      const firstIds = new Set(
        srv
          .requests()
          .slice(0, 50)
          .map((q) => q.id),
      );
      expect(second.filter((id) => firstIds.has(id))).toEqual([]);
      expect(again.stderr).toContain('10 scheduled, 50 skipped, 0 failed, 0 not sent');
    } finally {
      await srv.close();
    }
  });

  // Faults the server injects before its store is reached, and the client's own state file under
  // signals: no store changes these, so only the JSON pass runs them (and the rest of this file).
  it.skipIf(onPostgres())('503s and dropped connections mid-run with --retry 0: failed rows reported (exit 8), the rest done', async () => {
    const srv = await startBulkServer(100, { faults: parseFaults('scheduleSocialPost:status=503,rate=0.1;/social/posts/*/schedule:drop,rate=0.05', 7) });
    try {
      const file = csvPlan(tempDir('cr-bulk-'), ids(100));
      const r = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--json', '--retry', '0']);
      const faults = srv.log.filter((l) => / fault POST /.test(l));
      const drops = faults.filter((l) => l.includes('drop'));
      expect(faults.length).toBeGreaterThan(0);
      expect(drops.length).toBeGreaterThan(0);
      const rows = jsonLines(r.stdout);
      const failed = rows.filter((l) => l.status === 'failed');
      expect(failed).toHaveLength(faults.length);
      expect(failed.every((l) => l.exit === 8)).toBe(true);
      expect(failed.filter((l) => l.code === 'SERVICE_UNAVAILABLE')).toHaveLength(faults.length - drops.length);
      // One form for every detail: the words alone (the code beside them), never the request.
      expect(failed.filter((l) => l.code === 'NETWORK_ERROR').length).toBeGreaterThan(0);
      for (const l of failed) expect(String(l.error)).not.toMatch(/https?:\/\/|\(POST /);
      expect(rows.filter((l) => l.status === 'scheduled')).toHaveLength(100 - faults.length);
      expect(srv.requests()).toHaveLength(100 - faults.length);
      expect(r.exitCode).toBe(8);
    } finally {
      await srv.close();
    }
  });

  it.skipIf(onPostgres())('--retry 5 rides through 503s and dropped connections: every row scheduled once, the retries counted', async () => {
    const srv = await startBulkServer(100, { faults: parseFaults('scheduleSocialPost:status=503,rate=0.2;/social/posts/*/schedule:drop,rate=0.05', 7) });
    try {
      const file = csvPlan(tempDir('cr-bulk-'), ids(100));
      const r = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--json', '--retry', '5'], { env: { CR_RETRY_BASE_MS: '5' } });
      const faults = srv.log.filter((l) => / fault POST /.test(l));
      expect(faults.filter((l) => l.includes('drop')).length).toBeGreaterThan(0);
      const rows = jsonLines(r.stdout);
      expect(rows.filter((l) => l.status === 'scheduled')).toHaveLength(100);
      // Each injected fault was one send that is counted as one retry of its row.
      expect(rows.reduce((n, l) => n + Number(l.retries ?? 0), 0)).toBe(faults.length);
      expect(r.stderr).toContain(`100 scheduled, 0 skipped, 0 failed, 0 not sent; ${faults.length} retries after transient failures`);
      expect(srv.requests()).toHaveLength(100);
      expect(new Set(srv.requests().map((q) => q.id)).size).toBe(100);
      expect(r.exitCode).toBe(0);
    } finally {
      await srv.close();
    }
  });

  it.skipIf(onPostgres())('--wait: a 429 stops new sends, the countdown is on stderr, and the run goes on after the reset', async () => {
    // Seed 5 draws one 429, at the fifth send, so the run waits out one real Retry-After
    // second and then sends the other eight rows after it.
    const srv = await startBulkServer(12, { faults: parseFaults('scheduleSocialPost:status=429,rate=0.15,retry_after=1', 5) });
    try {
      const file = csvPlan(tempDir('cr-bulk-'), ids(12));
      const r = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--wait', '--concurrency', '1', '--json'], { timeoutMs: 30_000 });
      const limited = srv.log.filter((l) => l.includes('status 429'));
      expect(limited).toHaveLength(1);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(/rate limit reached; waiting \d+ s for the window to reset \(at \d\d:\d\d\)/);
      expect(jsonLines(r.stdout).every((l) => l.status === 'scheduled')).toBe(true);
      expect(srv.requests()).toHaveLength(12);
    } finally {
      await srv.close();
    }
  });

  it.skipIf(onPostgres())('SIGKILL halfway: a rerun sends only the rows not recorded, none recorded is sent twice', async () => {
    // Killed from the server's own log, when its 60th schedule request is answered: however
    // slow the machine, the run cannot finish first, and no more than the sends then in flight
    // (--concurrency 4) reach the server unrecorded. The rerun uses a second key, so the log
    // tells the two runs apart even if a request of the first is handled late.
    let child: ReturnType<typeof spawnBin> | undefined;
    const scheduled = (line: string, key: string) => / POST \/api\/v1\/social\/posts\/[^/]+\/schedule 200 /.test(line) && line.endsWith(` key=${key}`);
    let firstAnswered = 0;
    const srv = await startBulkServer(200, {
      faults: parseFaults('scheduleSocialPost:latency=15ms', 1),
      onLog: (line) => {
        if (scheduled(line, 'k-editor') && ++firstAnswered === 60) child?.kill('SIGKILL');
      },
    });
    const idsOf = (key: string) => srv.log.filter((l) => scheduled(l, key)).map((l) => /\/social\/posts\/([^/]+)\/schedule /.exec(l)![1]!);
    try {
      const dir = tempDir('cr-bulk-');
      const file = csvPlan(dir, ids(200));
      const state = join(dir, 'state.jsonl');
      child = spawnBin(['posts', 'schedule', '--from', file, '--state', state, '--concurrency', '4'], { env: cliEnv(srv.baseUrl), timeoutMs: 30_000 });
      const killed = await child;
      expect(killed.signal).toBe('SIGKILL');
      const recorded = new Set(stateLines(state).map((s) => s.id));
      expect(recorded.size).toBeLessThan(200);

      const again = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--state', state, '--concurrency', '8'], { env: { CR_API_KEY: EDITOR_2 }, timeoutMs: 60_000 });
      expect(again.exitCode).toBe(0);
      const first = idsOf('k-editor');
      // Every recorded row was answered; at most the sends in flight at the kill were answered unrecorded.
      expect(first.filter((id) => !recorded.has(id)).length).toBeLessThanOrEqual(4);
      expect([...recorded].filter((id) => !first.includes(id))).toEqual([]);
      const resent = idsOf('k-editor-2');
      expect(resent).toHaveLength(200 - recorded.size);
      expect(resent.filter((id) => recorded.has(id))).toEqual([]);
      expect(new Set([...recorded, ...resent]).size).toBe(200);
    } finally {
      await srv.close();
    }
  });

  it.skipIf(onPostgres())('Ctrl-C (SIGINT to the process): exit 130, every row reported scheduled is in the state file, a rerun finishes', async () => {
    const srv = await startBulkServer(200, { faults: parseFaults('scheduleSocialPost:latency=15ms', 1) });
    try {
      const dir = tempDir('cr-bulk-');
      const file = csvPlan(dir, ids(200));
      const state = join(dir, 'state.jsonl');
      const child = spawnBin(['posts', 'schedule', '--from', file, '--state', state, '--json'], { env: cliEnv(srv.baseUrl), timeoutMs: 30_000 });
      await until(() => stateLines(state).length >= 40, '40 recorded rows');
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      const done = jsonLines(String(r.stdout))
        .filter((l) => l.status === 'scheduled')
        .map((l) => l.id);
      const recorded = stateLines(state).map((s) => s.id);
      expect(new Set(recorded)).toEqual(new Set(done));
      expect(String(r.stderr)).toMatch(/\d+ scheduled, 0 skipped, 0 failed, \d+ not sent/);
      expect(String(r.stderr)).toContain('Interrupted');

      const again = await crAt(srv.baseUrl, ['posts', 'schedule', '--from', file, '--state', state], { timeoutMs: 30_000 });
      expect(again.exitCode).toBe(0);
      expect(again.stderr).toContain(`${200 - recorded.length} scheduled, ${recorded.length} skipped`);
    } finally {
      await srv.close();
    }
  });
});
