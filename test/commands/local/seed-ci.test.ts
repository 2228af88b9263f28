import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore } from '../../helpers/store-under-test.js';
import { AT, cliAt } from '../../bulk/support.js';

/**
 * Problem lists in CI: `cr local seed` annotates under GitHub Actions as the plan check does
 * (each problem once, a summary first past 10, the first 20), and under --json the error
 * object of both lists the problems, capped the same, with how many more.
 */
afterAll(() => cleanupTempDirs());

/** 53 users without an email: 53 problems. */
async function badFixture() {
  const dir = tempDir('cr-seed-ci-');
  const file = join(dir, 'fx.json');
  writeFileSync(file, JSON.stringify({ users: Array.from({ length: 53 }, (_, i) => ({ id: `u-${i}`, name: 'n' })) }));
  return { file, store: await newStore(dir) };
}
const COMMAND = /^::error file=[^,:]+,title=cr local seed::\$\.users\[\d+\]\.email: [^\r\n]*$/;

describe('cr local seed in CI', () => {
  it('GITHUB_ACTIONS=true: a summary annotation first, 20 annotations, then how many more; no line twice', async () => {
    const { file, store } = await badFixture();
    const r = await runCli(['local', 'seed', file, '--store', store], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe(`::error file=${file},title=cr local seed::53 problems in ${file}; nothing was written. The first 20 are annotated and in the log`);
    for (const l of lines.slice(1, 21)) expect(l).toMatch(COMMAND);
    expect(lines[21]).toBe(`${file}: and 33 more problems`);
    expect(r.stderr).not.toContain(`${file}: $.users`);
  });

  it('--json: the error lists the first 20 problems and how many more', async () => {
    const { file, store } = await badFixture();
    const r = await runCli(['local', 'seed', file, '--store', store, '--json']);
    expect(r.exitCode).toBe(2);
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; problems: { file: string; path: string; message: string }[]; more: number };
    expect(err.error).toContain('53 problems in the fixtures');
    expect(err.problems).toHaveLength(20);
    expect(err.problems[0]).toEqual({ file, path: '$.users[0].email', message: expect.any(String) });
    expect(err.more).toBe(33);
  });
});

describe('cr posts schedule --from, plan check, --json', () => {
  it('the error lists the first 20 bad lines and how many more', async () => {
    const dir = tempDir('cr-seed-ci-');
    const file = join(dir, 'many.csv');
    writeFileSync(file, ['id,at', ...Array.from({ length: 53 }, (_, i) => `not-a-uuid-${i},${AT}`)].join('\n') + '\n');
    const r = await cliAt('http://127.0.0.1:9/api/v1', ['posts', 'schedule', '--from', file, '--json']);
    expect(r.exitCode).toBe(2);
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!) as { problems: { file: string; line: number; message: string }[]; more: number };
    expect(err.problems).toHaveLength(20);
    expect(err.problems[0]).toEqual({ file, line: 2, message: 'id "not-a-uuid-0" is not a uuid' });
    expect(err.more).toBe(33);
  });
});
