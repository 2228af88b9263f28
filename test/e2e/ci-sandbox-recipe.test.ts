import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { readWorkflow, runAttempt, type StepResult } from '../bulk/workflow.js';
import { expectWorkflowHygiene } from '../bulk/workflow-hygiene.js';

/**
 * docs/workflows/rehearse-schedule.yml (the workflow of docs/ci-sandbox.md) with the docs'
 * three-website fixture, its `run:` steps as written (test/bulk/workflow.ts plays the runner).
 * The first attempt's server fails one row on purpose (a fault added to its `cr serve` line);
 * the rerun, a fresh runner with a fresh sandbox, rehearses the whole plan again. "Install cr"
 * is checked to install the pinned package; a `cr` on PATH stands for what it installs. A
 * real process: the recipe is shell steps.
 */
// Hooks run newest first: the servers are stopped (and gone) before their folders are removed.
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

const WORKFLOW = join(ROOT, 'docs', 'workflows', 'rehearse-schedule.yml');
const EXAMPLE = join(ROOT, 'docs', 'workflows', 'sandbox');
const plan = readFileSync(join(EXAMPLE, 'posts', 'schedule.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1);
const FAILING = plan[5]!.split(',')[0]!;

/** A fresh runner's workspace: the repository's fixture and plan, as checked out. */
function workspace(): { dir: string; env: Record<string, string> } {
  const dir = tempDir('cr-ci-sandbox-');
  cpSync(EXAMPLE, dir, { recursive: true });
  const env: Record<string, string> = {
    PATH: crOnPath(join(dir, '.bin')),
    HOME: dir,
    CR_CONFIG_DIR: join(dir, '.cfg'),
    CR_NOW: '2030-01-02T00:00:00Z',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
  };
  return { dir, env };
}

/** Whether a process still runs (signal 0 checks without sending). */
function alive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

const byName = (results: StepResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));

/** The attempt's last step stops its server; it is killed anyway in case a step failed before. */
function stopLater(dir: string) {
  const pids = readdirSync(dir)
    .filter((n) => n.startsWith('.github-env-'))
    .flatMap((f) => [...(/CR_SERVE_PID=(\d+)/.exec(readFileSync(join(dir, f), 'utf8'))?.slice(1) ?? [])]);
  cleanups.push(async () => {
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGTERM');
      } catch {
        // already stopped by the workflow's last step
      }
    }
    // The workflow's `kill` does not wait; the server drains and writes its last log line.
    for (let i = 0; i < 200 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 25));
  });
}

describe('docs/workflows/rehearse-schedule.yml (docs/ci-sandbox.md)', () => {
  it('is the workflow the page shows; installs the pinned package, reads only, the key on the sending step only', () => {
    const page = readFileSync(join(ROOT, 'docs', 'ci-sandbox.md'), 'utf8');
    expect(page).toContain('```yaml\n' + readFileSync(WORKFLOW, 'utf8') + '```');
    expectWorkflowHygiene(readWorkflow(WORKFLOW));
  });

  it('schedules three websites with one agency key; a rerun, in a new sandbox, rehearses the whole plan', async () => {
    const workflow = readWorkflow(WORKFLOW);
    const cacheDir = tempDir('cr-ci-cache-');
    const context = { 'github.run_id': '4242', 'github.run_attempt': '1' };
    const skip = (name: string) => name === 'Install cr';

    // Attempt 1: the server answers 500 for one post (docs/fault-injection.md); a 500 is not retried.
    const one = workspace();
    const first = byName(
      await runAttempt(workflow, {
        context,
        cwd: one.dir,
        env: one.env,
        cacheDir,
        skip,
        rewrite: (name, run) => (name === 'Start the server' ? run.replace('cr serve ', `cr serve --faults '/social/posts/${FAILING}/schedule:status=500' `) : run),
      }),
    );
    stopLater(one.dir);
    for (const name of ['Seed the sandbox', 'Start the server', 'Create a key', 'Check the plan']) expect(first[name]!.exitCode, first[name]!.output).toBe(0);
    expect(first['Create a key']!.output).toMatch(/^::add-mask::cr_[0-9a-f]{40}$/m);
    expect(first['Check the plan']!.output).toContain('dry run: 12 to send, 0 skipped');
    expect(first.Schedule!.exitCode).not.toBe(0);
    expect(first.Schedule!.output).toContain('11 scheduled, 0 skipped, 1 failed, 0 not sent');
    expect(first.Schedule!.output).not.toContain('Website not in key scope');
    // The failed step does not stop the steps marked if: always().
    expect(first['Stop the server']!.ran).toBe(true);
    expect(first['Stop the server']!.exitCode).toBe(0);

    // The rerun: a fresh runner and sandbox, attempt 2, no fault: the whole plan again.
    const two = workspace();
    const second = byName(await runAttempt(workflow, { context: { ...context, 'github.run_attempt': '2' }, cwd: two.dir, env: two.env, cacheDir, skip }));
    stopLater(two.dir);
    for (const r of Object.values(second)) expect(r.exitCode, `${r.name}: ${r.output}`).toBe(0);
    expect(second['Check the plan']!.output).toContain('dry run: 12 to send, 0 skipped');
    expect(second.Schedule!.output).toContain('12 scheduled, 0 skipped, 0 failed, 0 not sent');
    expect(readdirSync(cacheDir)).toEqual([]);

    // The second sandbox saw every post of the plan: its server's request log.
    const scheduled = [...readFileSync(join(two.dir, 'cr-serve.log'), 'utf8').matchAll(/POST \/api\/v1\/social\/posts\/(\S+)\/schedule 200/g)].map((m) => m[1]!);
    expect(scheduled.sort()).toEqual(plan.map((row) => row.split(',')[0]!).sort());
    expect(readFileSync(join(two.dir, 'cr-report.xml'), 'utf8')).toContain('failures="0"');
  }, 120_000);

  it('a server that never started: "Stop the server" still succeeds, and the failure is the step that broke', async () => {
    const workflow = readWorkflow(WORKFLOW);
    const w = workspace();
    const r = byName(
      await runAttempt(workflow, {
        context: { 'github.run_id': '1', 'github.run_attempt': '1' },
        cwd: w.dir,
        env: w.env,
        cacheDir: tempDir('cr-ci-cache-'),
        skip: (n) => n === 'Install cr',
        rewrite: (name, run) => (name === 'Seed the sandbox' ? 'exit 1' : run),
      }),
    );
    expect(r['Seed the sandbox']!.exitCode).toBe(1);
    expect(r['Start the server']!.ran).toBe(false);
    expect(r['Stop the server']!.ran).toBe(true);
    expect(r['Stop the server']!.exitCode, r['Stop the server']!.output).toBe(0);
  }, 60_000);

  it('websites of two agencies in the plan: the key step fails naming each website and its agency', async () => {
    const workflow = readWorkflow(WORKFLOW);
    const w = workspace();
    // A second agency for the third website; a fourth website (of no agency) the plan does not name.
    const fx = JSON.parse(readFileSync(join(w.dir, 'fixtures', 'sandbox.json'), 'utf8')) as { agencies: { id: string }[]; websites: { id: string; agency_id: string | null }[] };
    fx.agencies.push({ ...fx.agencies[0]!, id: 'a-other' });
    const third = fx.websites[2]!;
    third.agency_id = 'a-other';
    fx.websites.push({ ...fx.websites[0]!, id: '0c000000-0000-4000-8000-0000000000ff', agency_id: null });
    writeFileSync(join(w.dir, 'fixtures', 'sandbox.json'), JSON.stringify(fx));
    const r = byName(
      await runAttempt(workflow, { context: { 'github.run_id': '2', 'github.run_attempt': '1' }, cwd: w.dir, env: w.env, cacheDir: tempDir('cr-ci-cache-'), skip: (n) => n === 'Install cr' }),
    );
    stopLater(w.dir);
    expect(r['Create a key']!.exitCode).not.toBe(0);
    expect(r['Create a key']!.output).toContain('the websites of the plan must all belong to one agency');
    expect(r['Create a key']!.output).toContain(`${third.id} (agency a-other)`);
    expect(r['Create a key']!.output).toContain(`${fx.websites[0]!.id} (agency ${fx.websites[0]!.agency_id})`);
    expect(r['Create a key']!.output).not.toContain('0c000000-0000-4000-8000-0000000000ff');
    expect(r.Schedule!.ran).toBe(false);
  }, 60_000);
});
