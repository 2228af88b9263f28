import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnBin } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { soak } from '../helpers/soak.js';

/**
 * The CI sandbox end to end (docs/fixtures.md, docs/cli-contract.md "For CI jobs"): a plan of
 * posts (60 in `npm test`, 300 in `npm run test:soak`) that exist only in the user's fixture file, seeded into a running `cr serve`
 * with faults injected, checked, and scheduled with --retry; a row for a foreign website
 * fails alone; keys are made and revoked while the server runs.
 */
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

const OWNER = 'a0000000-0000-4000-8000-000000000001';
const SITE = 'b0000000-0000-4000-8000-000000000001';
const FOREIGN = 'b0000000-0000-4000-8000-000000000002';
const postId = (i: number) => `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const FOREIGN_POST = 'c0000000-0000-4000-8000-999999999999';
const N = soak(60, 300);
const AT = '2030-06-01T09:00:00Z';
const FAULTS = 'scheduleSocialPost:status=503,rate=0.2;/social/**:drop,rate=0.05';

const website = (id: string, name: string) => ({ id, name, domain: `${name}.example`, agency_id: null, owner_id: OWNER, location: null });
const draft = (id: string, websiteId: string) => ({
  id,
  websiteId,
  status: 'draft',
  content: `post ${id}`,
  scheduledAt: null,
  createdAt: '2030-01-01T00:00:00Z',
  updatedAt: '2030-01-01T00:00:00Z',
});

/** cr serve as a process of its own, in a complete environment of its own. */
async function startServe(dir: string, store: string): Promise<{ url: string; log: () => string; stop: () => Promise<void> }> {
  const urlFile = join(dir, 'url.txt');
  let log = '';
  const server = spawnBin(['serve', '--store', store, '--port', '0', '--url-file', urlFile, '--faults', FAULTS, '--seed', '42'], { configDir: dir, timeoutMs: 120_000 });
  server.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const stop = async () => {
    server.kill('SIGTERM');
    await server;
  };
  cleanups.push(stop);
  const waited = await runCli(['local', 'wait', '--url-file', urlFile, '--timeout', '20']);
  expect(waited.exitCode, waited.stderr + log).toBe(0);
  return { url: readFileSync(urlFile, 'utf8').split('\n')[0]!.trim(), log: () => log, stop };
}

describe(`a ${N}-post plan from fixtures, through a running cr serve with faults`, () => {
  it('seeded, checked and scheduled with --retry 5: every row once in the store, the foreign row fails alone, keys made and revoked while serving', async () => {
    const dir = tempDir('cr-sandbox-');
    const store = join(dir, 'ci-store.json');
    const env = { CR_RETRY_BASE_MS: '5', CR_NOW: '2030-01-02T00:00:00Z' };

    // The websites go in before the server starts; the posts while it runs.
    const base = join(dir, 'base.json');
    writeFileSync(base, JSON.stringify({ version: 1, users: [{ id: OWNER, email: 'ci@example.com', name: 'CI' }], websites: [website(SITE, 'ours'), website(FOREIGN, 'theirs')] }));
    expect((await runCli(['local', 'seed', base, '--store', store])).exitCode).toBe(0);
    const srv = await startServe(dir, store);

    const posts = join(dir, 'posts.json');
    writeFileSync(posts, JSON.stringify({ social_posts: [...Array.from({ length: N }, (_, i) => draft(postId(i + 1), SITE)), draft(FOREIGN_POST, FOREIGN)] }));
    const seeded = await runCli(['local', 'seed', posts, '--store', store], { env });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    expect(seeded.stderr).toContain(`social_posts ${N + 1} added`);
    expect(srv.log()).toMatch(/POST \/_local\/seed 200/);

    // Keys while it runs: an editor for the plan, a viewer made and revoked.
    const editor = await runCli(['local', 'keys', 'create', '--role', 'editor', '--website', SITE, '--store', store, '--json']);
    expect(editor.exitCode, editor.stderr).toBe(0);
    const key = (JSON.parse(editor.stdout) as { key: string }).key;
    const viewer = await runCli(['local', 'keys', 'create', '--role', 'viewer', '--website', SITE, '--store', store, '--json']);
    const { id: viewerId, key: viewerKey } = JSON.parse(viewer.stdout) as { id: string; key: string };
    const asViewer = { CR_BASE_URL: srv.url, CR_API_KEY: viewerKey };
    expect((await runCli(['api', '/intelligence/learnings'], { env: asViewer })).exitCode).toBe(0);
    expect((await runCli(['local', 'keys', 'revoke', viewerId, '--store', store])).exitCode).toBe(0);
    expect((await runCli(['api', '/intelligence/learnings'], { env: asViewer })).exitCode).toBe(3);

    // The plan: N rows of our website, one of a website outside the key's scope in the middle.
    const plan = join(dir, 'plan.csv');
    const rows = Array.from({ length: N }, (_, i) => `${postId(i + 1)},${AT},${SITE}`);
    rows.splice(N / 2, 0, `${FOREIGN_POST},${AT},${FOREIGN}`);
    writeFileSync(plan, ['id,at,website_id', ...rows].join('\n') + '\n');
    const state = join(dir, 'state.jsonl');
    const junit = join(dir, 'junit.xml');
    const asEditor = { ...env, CR_BASE_URL: srv.url, CR_API_KEY: key };

    const check = await runCli(['posts', 'schedule', '--from', plan, '--state', state, '--dry-run'], { env: asEditor });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(check.stderr).toContain(`${N + 1} to send`);

    // One row at a time: the server's seeded fault draws then come in one order, so the run repeats
    // exactly (with rows in parallel the draws interleave, and six failed tries of one row, about
    // 2e-4 a row, could end a run one row short).
    const run = await runCli(['posts', 'schedule', '--from', plan, '--state', state, '--retry', '5', '--junit', junit, '--json', '--concurrency', '1'], { env: asEditor });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; status: string; code?: string; retries?: number });
    const foreign = lines.filter((l) => l.id === FOREIGN_POST);
    expect(foreign).toEqual([expect.objectContaining({ status: 'failed', code: 'FORBIDDEN' })]);
    const notScheduled = lines.filter((l) => l.status !== 'scheduled' && l.id !== FOREIGN_POST);
    expect(notScheduled, JSON.stringify(notScheduled)).toEqual([]);
    expect(lines.filter((l) => l.status === 'scheduled')).toHaveLength(N);
    const faults = srv.log().match(/ fault POST \S+ /g) ?? [];
    expect(faults.length).toBeGreaterThan(0);
    expect(srv.log()).toContain('drop');
    const retried = lines.reduce((n, l) => n + (l.retries ?? 0), 0);
    expect(retried).toBe(faults.length);
    expect(run.stderr).toContain(`${N} scheduled, 0 skipped, 1 failed, 0 not sent; ${retried} retries`);
    expect(run.exitCode).toBe(4);
    expect(readFileSync(junit, 'utf8')).toContain('failures="1"');

    // Each post exactly once in the store, scheduled at the plan's time; each applied once.
    const exported = await runCli(['local', 'export', '--store', store, '--only', 'social_posts']);
    const stored = (JSON.parse(exported.stdout) as { social_posts: { id: string; status: string; scheduledAt: string | null }[] }).social_posts;
    const ours = stored.filter((p) => p.id !== FOREIGN_POST);
    expect(ours).toHaveLength(N);
    expect(new Set(ours.map((p) => p.id)).size).toBe(N);
    expect(ours.every((p) => p.status === 'scheduled' && p.scheduledAt === AT)).toBe(true);
    expect(stored.find((p) => p.id === FOREIGN_POST)).toMatchObject({ status: 'draft' });
    const applied = srv.log().match(/POST \/api\/v1\/social\/posts\/\S+\/schedule 200/g) ?? [];
    expect(applied).toHaveLength(N);

    // A rerun with --state sends nothing that was scheduled.
    const rerun = await runCli(['posts', 'schedule', '--from', plan, '--state', state, '--retry', '5', '--json'], { env: asEditor });
    expect(rerun.stderr).toContain(`0 scheduled, ${N} skipped, 1 failed`);
    await srv.stop();
  }, 120_000);
});
