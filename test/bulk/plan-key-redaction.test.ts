import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { AT, cliAt } from './support.js';

afterAll(() => cleanupTempDirs());

/** A key pasted into a plan by mistake: never printed whole (docs/cli-contract.md §3). */
const KEY = 'cr_7b166c871f25b7ca3206a9a1d9debdcfae9d2428';
const MASK = 'cr_7b16…2428';
const NOWHERE = 'http://127.0.0.1:9/api/v1';

describe('an API key inside a plan', () => {
  it('in a CSV id: masked in the FILE:LINE lines, the annotations, the JUnit report and the --json error', async () => {
    const dir = tempDir('cr-plan-key-');
    const file = join(dir, 'key.csv');
    // Also a value longer than the echo cut, with the key across the cut.
    writeFileSync(file, `id,at,website_id\n${KEY},${AT},\n${'x'.repeat(180)}${KEY}${'y'.repeat(50)},${AT},\n`);
    const junit = join(dir, 'kj.xml');
    for (const env of [{}, { GITHUB_ACTIONS: 'true' }]) {
      for (const flags of [[], ['--json']]) {
        const r = await cliAt(NOWHERE, ['posts', 'schedule', '--from', file, '--dry-run', '--junit', junit, ...flags], { env });
        expect(r.exitCode).toBe(2);
        const all = r.stdout + r.stderr + readFileSync(junit, 'utf8');
        expect(all).not.toContain(KEY);
        expect(all).not.toContain(KEY.slice(3, 30));
        expect(r.stderr).toContain(MASK);
        expect(readFileSync(junit, 'utf8')).toContain(MASK);
      }
    }
  });

  it('as a JSON Lines field name: masked in "unknown field"', async () => {
    const dir = tempDir('cr-plan-key-');
    const file = join(dir, 'key.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'x', at: AT, [KEY]: 'v' })}\n`);
    const r = await cliAt(NOWHERE, ['posts', 'schedule', '--from', file, '--dry-run'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stderr).toContain(`unknown field "${MASK}"`);
  });
});
