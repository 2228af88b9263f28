import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { AT, ids, KEYS, NOW, startBulkServer } from './support.js';

afterAll(() => cleanupTempDirs());

interface Step {
  name?: string;
  run: string;
}

/** The `run:` steps of the GitHub Actions example of docs/bulk-scheduling.md (a block scalar or one line). */
function workflowSteps(page: string): Step[] {
  const start = page.indexOf('## In GitHub Actions');
  const block = /```yaml\n([\s\S]*?)```/.exec(page.slice(start))?.[1];
  if (!block) throw new Error('no yaml block in the GitHub Actions section of docs/bulk-scheduling.md');
  const lines = block.split('\n');
  const steps: Step[] = [];
  let name: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*- /.test(line)) name = undefined;
    const n = /^\s*(?:- )?name: (.*)$/.exec(line);
    if (n && /^\s+- name|^\s{8}name/.test(line)) name = n[1];
    const r = /^(\s*)(?:- )?run: (.*)$/.exec(line);
    if (!r) continue;
    if (r[2] !== '|') {
      steps.push({ name, run: r[2]! });
      continue;
    }
    const body: string[] = [];
    const indent = r[1]!.length + 2;
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) >= indent)) body.push(lines[++i]!.slice(indent));
    steps.push({ name, run: body.join('\n').trim() });
  }
  return steps;
}

describe('the GitHub Actions example of docs/bulk-scheduling.md', () => {
  it('runs as written (minus the runner and the install step) and a rerun skips what is done', async () => {
    const steps = workflowSteps(readFileSync(join(ROOT, 'docs', 'bulk-scheduling.md'), 'utf8'));
    expect(steps.map((s) => s.name)).toEqual(['Install cr', 'Check the plan', 'Schedule']);
    // The install step names the published package; test/e2e/package-install.test.ts installs its tarball the same way.
    const { name } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };
    expect(steps[0]!.run).toBe(`npm install --global ${name}`);
    const srv = await startBulkServer(5);
    try {
      const dir = tempDir('cr-gha-');
      // What "Install cr" provides on a runner: a `cr` on PATH.
      const PATH = crOnPath(join(dir, 'bin'));
      mkdirSync(join(dir, 'posts'));
      writeFileSync(join(dir, 'posts', 'schedule.csv'), ['id,at,website_id', ...ids(5).map((id) => `${id},${AT},`)].join('\n') + '\n');
      const summary = join(dir, 'summary.md');
      const env = {
        PATH,
        HOME: dir,
        CR_CONFIG_DIR: join(dir, 'cfg'),
        CR_BASE_URL: srv.baseUrl,
        CR_API_KEY: KEYS.editor,
        CR_NOW: NOW,
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
        CI: 'true',
      };
      const runJob = async () => {
        const out: string[] = [];
        for (const step of steps.filter((s) => s.name !== 'Install cr')) {
          // GitHub's default shell for run steps: bash -e {0}.
          const r = await spawnProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: dir, env });
          expect(r.exitCode, `${step.name}: ${r.stderr}`).toBe(0);
          out.push(String(r.stderr));
        }
        return out;
      };
      const first = await runJob();
      expect(first[0]).toContain('dry run: 5 to send, 0 skipped');
      expect(first[1]).toContain('5 scheduled, 0 skipped, 0 failed, 0 not sent');
      expect(srv.requests()).toHaveLength(5);
      expect(existsSync(join(dir, 'cr-report.xml'))).toBe(true);
      expect(readFileSync(summary, 'utf8')).toContain('| Line | ID | At | Status | Detail |');
      const second = await runJob();
      expect(second[1]).toContain('0 scheduled, 5 skipped');
      expect(srv.requests()).toHaveLength(5);
    } finally {
      await srv.close();
    }
  });
});
