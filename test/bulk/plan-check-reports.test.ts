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
    // Each problem once: as an annotation (the runner shows it in the log too), not also as FILE:LINE.
    expect(r.stderr).not.toContain(`${file}:3: `);
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

  it('53 bad lines in Actions: a summary annotation first, the first 20 annotated, then how many more; none printed twice', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'many.csv');
    writeFileSync(file, ['id,at,website_id', ...Array.from({ length: 53 }, (_, i) => `${postId(i + 1)},${AT},w-harbor`)].join('\n') + '\n');
    const r = await cliAt('http://127.0.0.1:9/api/v1', ['posts', 'schedule', '--from', file], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe(
      `::error file=${file.replace(/[:,]/g, (c) => (c === ':' ? '%3A' : '%2C'))},title=cr posts schedule%3A plan check::53 problems in ${file}; nothing was sent. The first 20 are annotated and in the log`,
    );
    const annotations = lines.slice(1, 21);
    for (const a of annotations) expect(a).toMatch(COMMAND);
    expect(annotations.map((a) => /line=(\d+)/.exec(a)![1])).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 2)));
    expect(lines[21]).toBe(`${file}: and 33 more problems`);
    expect(lines[22]).toMatch(/^error: .*53 problems in the plan; nothing was sent/);
    expect(lines).toHaveLength(23);
    expect(r.stderr).not.toContain(`${file}:2: `);
  });

  it('53 bad lines at a terminal or with --json: the first 20 as FILE:LINE, then how many more', async () => {
    const dir = tempDir('cr-plan-');
    const file = join(dir, 'many.csv');
    writeFileSync(file, ['id,at', ...Array.from({ length: 53 }, (_, i) => `not-a-uuid-${i},${AT}`)].join('\n') + '\n');
    for (const flags of [[], ['--json']]) {
      const r = await cliAt('http://127.0.0.1:9/api/v1', ['posts', 'schedule', '--from', file, ...flags]);
      expect(r.exitCode).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}`));
      expect(lines.slice(0, 20).map((l) => l.slice(file.length + 1).split(':')[0])).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 2)));
      expect(lines[20]).toBe(`${file}: and 33 more problems`);
      expect(lines).toHaveLength(21);
      expect(r.stderr).not.toContain('::error');
    }
  });
});
