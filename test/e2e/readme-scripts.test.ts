import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { KEYS, NOW, writeFixtureStore } from '../helpers/fixture-store.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';

/**
 * The "For scripts" examples of docs/output.md, run as written by bash (with pipefail) against the
 * real local server: a real shell is the point (pipes, redirection, xargs), so the built
 * CLI runs as `cr` on PATH.
 */
/** The `cr` lines of the first sh block after `heading` in `file`. */
function shLines(file: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const at = text.indexOf(heading);
  if (at < 0) return [];
  return (/```sh\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? '').split('\n').filter((l) => l.startsWith('cr '));
}
const examples = shLines('docs/output.md', '## For scripts');
/** The README's first steps for script writers point to this page; they run the same way. */
const firstSteps = shLines('README.md', '## First steps in a script');

let server: RunningServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = tempDir('cr-readme-scripts-');
  server = await startServer({ storePath: writeFixtureStore(dir), host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
  env = { PATH: crOnPath(dir), HOME: dir, CR_CONFIG_DIR: dir, CR_API_KEY: KEYS.editor, CR_BASE_URL: `${server.url}/api/v1`, NO_COLOR: '1' };
});

afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});

const sh = (line: string) => spawnProcess('bash', ['-c', `set -euo pipefail\n${line}`], { cwd: dir, env });

describe('docs/output.md "For scripts"', () => {
  it('has one example for each flag', () => {
    for (const flag of ['--jq', '--csv', '--jsonl', '-q', '--paginate', '-H', '--include'])
      expect(
        examples.some((l) => l.includes(` ${flag} `) || l.endsWith(` ${flag}`)),
        flag,
      ).toBe(true);
  });

  it.each(examples)('%s', async (line) => {
    const r = await sh(line);
    expect(r.exitCode, r.stderr).toBe(0);
    if (line.includes('> entities.csv')) {
      const rows = parse(readFileSync(join(dir, 'entities.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
      expect(rows.map((x) => x['entity.name'])).toEqual(['Acme Studio', 'Berlin GmbH']);
    } else {
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    if (line.includes('--include')) expect(r.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
    if (line.includes('wc -l')) expect(r.stdout.trim()).toBe('450');
    if (line.includes('xargs')) expect(r.stdout.trim().split('\n')).toHaveLength(3);
    if (line.includes('--paginate')) expect(r.stdout).toBe('450');
  });
});

describe('README "First steps in a script"', () => {
  it('shows --json, --jq, --jsonl, -q and cr api', () => {
    for (const part of ['--json', '--jq', '--jsonl', '-q', 'cr api'])
      expect(
        firstSteps.some((l) => l.includes(part)),
        part,
      ).toBe(true);
  });

  it.each(firstSteps)('%s', async (line) => {
    const r = await sh(line);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    if (line.includes('wc -l')) expect(r.stdout.trim()).toBe('450');
  });
});
