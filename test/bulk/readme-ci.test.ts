import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { AT, ids, KEYS, NOW, writeBulkStore } from './support.js';
import { readWorkflow, runAttempt, type StepResult } from './workflow.js';
import { expectWorkflowHygiene } from './workflow-hygiene.js';

/**
 * docs/workflows/schedule-posts.yml (the workflow of docs/bulk-scheduling.md), its `run:`
 * steps as written against the real local server (test/bulk/workflow.ts plays the runner and
 * the cache actions). The first attempt meets a server that fails one row (a fault,
 * docs/fault-injection.md); the rerun meets the same store without it and sends that row only.
 */
afterAll(() => cleanupTempDirs());

const WORKFLOW = join(ROOT, 'docs', 'workflows', 'schedule-posts.yml');
const byName = (results: StepResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));

/** The real local server in this process over `storePath`, with a fault spec or none; its request log. */
async function serve(storePath: string, faults?: string) {
  const [{ startServer }, { fixedClock }, { parseFaults }] = await Promise.all([
    import('../../src/server/serve.js'),
    import('../../src/server/domain/clock.js'),
    import('../../src/server/app/faults.js'),
  ]);
  const log: string[] = [];
  const server = await startServer({
    storePath,
    host: '127.0.0.1',
    port: 0,
    rateLimit: 100_000,
    clock: fixedClock(NOW),
    faults: faults ? parseFaults(faults, 1) : undefined,
    log: (line) => void log.push(line),
  });
  const scheduled = () => log.flatMap((l) => / POST \/api\/v1\/social\/posts\/([^/]+)\/schedule 200 /.exec(l)?.slice(1) ?? []);
  return { baseUrl: `${server.url}/api/v1`, scheduled, close: () => server.close() };
}

describe('docs/workflows/schedule-posts.yml (docs/bulk-scheduling.md)', () => {
  it('is the workflow the page shows; installs the pinned package, reads only, the key on the sending step only', () => {
    const page = readFileSync(join(ROOT, 'docs', 'bulk-scheduling.md'), 'utf8');
    expect(page).toContain('```yaml\n' + readFileSync(WORKFLOW, 'utf8') + '```');
    // test/e2e/package-install.test.ts installs the tarball the same way.
    expectWorkflowHygiene(readWorkflow(WORKFLOW));
  });

  it('runs one at a time, never cancelling a run under way: two pushes cannot send at once', () => {
    expect(readWorkflow(WORKFLOW).doc.concurrency).toEqual({ group: 'schedule-posts', 'cancel-in-progress': false });
    // The page says what re-running an old run does.
    expect(readFileSync(join(ROOT, 'docs', 'bulk-scheduling.md'), 'utf8')).toMatch(/Re-running an earlier run[^.]*replays\s+the\s+plan\s+of\s+its\s+own\s+commit/);
  });

  it('keeps the state file of a failed attempt: the rerun sends only the row that failed, and a new run nothing', async () => {
    const workflow = readWorkflow(WORKFLOW);
    const plan = ids(6);
    const storePath = writeBulkStore(tempDir('cr-gha-store-'), 6);
    const cacheDir = tempDir('cr-gha-cache-');
    const attempt = async (runId: string, n: string, faults?: string) => {
      const dir = tempDir('cr-gha-');
      mkdirSync(join(dir, 'posts'));
      writeFileSync(join(dir, 'posts', 'schedule.csv'), ['id,at,website_id', ...plan.map((id) => `${id},${AT},`)].join('\n') + '\n');
      const srv = await serve(storePath, faults);
      try {
        const results = await runAttempt(workflow, {
          context: { 'github.run_id': runId, 'github.run_attempt': n, 'secrets.CR_API_KEY': KEYS.editor },
          cwd: dir,
          env: { PATH: crOnPath(join(dir, '.bin')), HOME: dir, CR_CONFIG_DIR: join(dir, '.cfg'), CR_NOW: NOW, CI: 'true', GITHUB_ACTIONS: 'true' },
          override: { CR_BASE_URL: srv.baseUrl },
          cacheDir,
          skip: (name) => name === 'Install cr',
        });
        return { steps: byName(results), scheduled: srv.scheduled() };
      } finally {
        await srv.close();
      }
    };

    // Attempt 1: the API answers 500 for the fourth row (not retried): the step fails.
    const first = await attempt('900', '1', `/social/posts/${plan[3]}/schedule:status=500`);
    expect(first.steps['Restore the state file']!.output).toBe('Cache not found for input keys: cr-state-900-1');
    expect(first.steps['Check the plan']!.output).toContain('dry run: 6 to send, 0 skipped');
    expect(first.steps.Schedule!.exitCode).not.toBe(0);
    expect(first.steps.Schedule!.output).toContain('5 scheduled, 0 skipped, 1 failed, 0 not sent');
    expect(first.steps['Save the state file']!.output).toBe('Cache saved with key: cr-state-900-1');
    expect(first.scheduled.sort()).toEqual(plan.filter((id) => id !== plan[3]));

    // The rerun of the job: attempt 2 of the same run finds attempt 1's entry.
    const second = await attempt('900', '2');
    for (const r of Object.values(second.steps)) expect(r.exitCode, `${r.name}: ${r.output}`).toBe(0);
    expect(second.steps['Restore the state file']!.output).toBe('Cache restored from key: cr-state-900-1');
    expect(second.steps['Check the plan']!.output).toContain('dry run: 1 to send, 5 skipped');
    expect(second.steps.Schedule!.output).toContain('1 scheduled, 5 skipped, 0 failed, 0 not sent');
    expect(second.scheduled).toEqual([plan[3]]);

    // A later run of the same plan (another push) starts from the newest state: nothing is sent twice.
    const later = await attempt('901', '1');
    expect(later.steps['Restore the state file']!.output).toBe('Cache restored from key: cr-state-900-2');
    expect(later.steps.Schedule!.output).toContain('0 scheduled, 6 skipped, 0 failed, 0 not sent');
    expect(later.scheduled).toEqual([]);
  }, 90_000);
});
