import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { AT, cliAt, postId } from './support.js';

afterAll(() => cleanupTempDirs());

/** A workflow command line as GitHub parses it: ::name key=value,key=value::data. */
const COMMAND = /^::error file=[^,:]+,line=\d+,title=[^,:]+::[^\r\n]*$/;

describe('a plan that fails its check, in CI', () => {
  it('GITHUB_ACTIONS=true and --junit: one ::error per bad line, one failed test case per bad line, exit 2, nothing sent', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'bad.csv');
    writeFileSync(file, ['id,at', `${postId(1)},${AT}`, `not-a-uuid,${AT}`, `${postId(3)},yesterday-ish`, `${postId(4)},${AT}`].join('\n') + '\n');
    const junit = join(dir, 'j.xml');
    // No server: the check runs before any request (a request would fail with exit 8).
    const r = await cliAt('http://127.0.0.1:9/api/v1', ['posts', 'schedule', '--from', file, '--junit', junit], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}:3: `);
    const commands = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(2);
    for (const c of commands) expect(c).toMatch(COMMAND);
    expect(commands.map((c) => /line=(\d+)/.exec(c)![1])).toEqual(['3', '4']);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, 'utf8'));
    const suite = doc.testsuites.testsuite;
    expect(suite['@_failures']).toBe('2');
    const cases = [suite.testcase].flat();
    expect(cases.map((c: Record<string, string>) => c['@_line'])).toEqual(['3', '4']);
    expect(cases.every((c: { failure?: unknown }) => c.failure !== undefined)).toBe(true);
  });

  it('outside GitHub Actions and without --junit: the FILE:LINE lines only, no file written', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'bad.csv');
    writeFileSync(file, `id,at\nnot-a-uuid,${AT}\n`);
    const r = await cliAt('http://127.0.0.1:9/api/v1', ['posts', 'schedule', '--from', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('::error');
    expect(existsSync(join(dir, 'j.xml'))).toBe(false);
  });
});
