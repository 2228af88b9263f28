import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * docs/ci-sandbox.md's workflow, its `run:` steps as written, in order, each in GitHub's
 * default shell (bash -e -o pipefail), with $GITHUB_ENV carried from step to step as the
 * runner does. "Install cr" is checked to install the package by its package.json name;
 * a `cr` on PATH stands for what it installs.
 */
const cleanups = cleanupsAfterAll();
afterAll(() => cleanupTempDirs());

interface Step {
  name: string;
  run: string;
}

/** The named steps with a `run:` (a one-liner or a `|` block) of the page's yaml block. */
function runSteps(page: string): Step[] {
  const lines = /```yaml\n([\s\S]*?)```/.exec(page)![1]!.split('\n');
  const steps: Step[] = [];
  let name = '';
  for (let i = 0; i < lines.length; i++) {
    const n = /^\s*- name: (.*)$/.exec(lines[i]!);
    if (n) name = n[1]!;
    const r = /^(\s*)run: (.*)$/.exec(lines[i]!);
    if (!r) continue;
    if (r[2] !== '|') {
      steps.push({ name, run: r[2]! });
      continue;
    }
    const indent = r[1]!.length + 2;
    const body: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) >= indent)) body.push(lines[++i]!.slice(indent));
    steps.push({ name, run: body.join('\n').trim() });
  }
  return steps;
}

const OWNER = 'a0000000-0000-4000-8000-000000000001';
const SITE = 'b0000000-0000-4000-8000-000000000001';
const postId = (i: number) => `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const AT = '2030-06-01T09:00:00Z';

describe('docs/ci-sandbox.md', () => {
  it('its workflow runs as written: seed, serve, wait, key, check with --state, schedule with --retry, JUnit, stop', async () => {
    const steps = runSteps(readFileSync(join(ROOT, 'docs', 'ci-sandbox.md'), 'utf8'));
    expect(steps.map((s) => s.name)).toEqual(['Install cr', 'Seed the sandbox', 'Start the server', 'Create a key', 'Check the plan', 'Schedule', 'Stop the server']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };
    expect(steps[0]!.run).toBe(`npm install -g ${pkg.name}`);

    const dir = tempDir('cr-ci-sandbox-');
    const bin = join(dir, 'bin');
    const PATH = crOnPath(bin);
    mkdirSync(join(dir, 'fixtures'));
    mkdirSync(join(dir, 'posts'));
    const drafts = Array.from({ length: 10 }, (_, i) => ({
      id: postId(i + 1),
      websiteId: SITE,
      status: 'draft',
      content: `post ${i + 1}`,
      scheduledAt: null,
      createdAt: '2030-01-01T00:00:00Z',
      updatedAt: '2030-01-01T00:00:00Z',
    }));
    writeFileSync(
      join(dir, 'fixtures', 'sandbox.json'),
      JSON.stringify({
        users: [{ id: OWNER, email: 'ci@example.com', name: 'CI' }],
        websites: [{ id: SITE, name: 'Ours', domain: 'ours.example', agency_id: null, owner_id: OWNER, location: null }],
        social_posts: drafts,
      }),
    );
    writeFileSync(join(dir, 'posts', 'schedule.csv'), ['id,at,website_id', ...drafts.map((p) => `${p.id},${AT},${SITE}`)].join('\n') + '\n');
    const githubEnv = join(dir, 'github-env');
    writeFileSync(githubEnv, '');
    const env: Record<string, string> = {
      PATH,
      HOME: dir,
      CR_CONFIG_DIR: join(dir, 'cfg'),
      CR_NOW: '2030-01-02T00:00:00Z',
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ENV: githubEnv,
    };
    cleanups.push(async () => {
      const pid = Number(env.CR_SERVE_PID);
      if (pid) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already stopped by the workflow's last step
        }
      }
    });
    const out: Record<string, string> = {};
    for (const step of steps.slice(1)) {
      // What earlier steps appended to $GITHUB_ENV is in the environment of the next ones.
      for (const line of readFileSync(githubEnv, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
      }
      const r = await spawnProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: dir, env });
      expect(r.exitCode, `${step.name}: ${r.stderr}`).toBe(0);
      out[step.name] = `${r.stdout}\n${r.stderr}`;
    }
    expect(out['Create a key']).toMatch(/^::add-mask::cr_[0-9a-f]{40}$/m);
    expect(out['Check the plan']).toContain('dry run: 10 to send, 0 skipped');
    expect(out.Schedule).toContain('10 scheduled, 0 skipped, 0 failed, 0 not sent');
    expect(readFileSync(join(dir, 'cr-report.xml'), 'utf8')).toContain('tests="10" failures="0"');
    const log = readFileSync(join(dir, 'cr-serve.log'), 'utf8');
    expect(log).toMatch(/POST \/_local\/keys 201/);
    expect(log.match(/POST \/api\/v1\/social\/posts\/\S+\/schedule 200/g)).toHaveLength(10);
    // The server stopped on the last step: the process ends once drained, its URL file removed.
    const pid = Number(env.CR_SERVE_PID);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    expect(existsSync(join(dir, 'cr-url.txt'))).toBe(false);
  }, 90_000);
});
