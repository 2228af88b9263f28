/**
 * `cr … | head` and `cr … 2>&1 | head -1`: the reader leaves early. Only a real process
 * with real pipes shows what happens then (an EPIPE on the next write).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/cli.js';
import { cleanupTempDirs } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/** Runs the CLI with the named stream closed from the start; returns its exit code and stdout. */
function withClosed(stream: 'stdout' | 'stderr', args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawnBin(args, { buffer: false, timeoutMs: 15_000 });
  child[stream]!.destroy();
  let stdout = '';
  if (stream === 'stderr') child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const dryRun = ['posts', 'schedule', '33333333-3333-4333-8333-333333333333', '--at', '+1h', '--dry-run', '--base-url', 'http://127.0.0.1:9/api/v1'];

describe('a reader that left', () => {
  it('a closed stderr is as quiet as a closed stdout: the command ends with its own code', async () => {
    const r = await withClosed('stderr', dryRun);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:9\/api\/v1\/social\/posts\/33333333-3333-4333-8333-333333333333\/schedule\n/);
  });

  it('a closed stdout ends the run quietly with 0', async () => {
    const r = await withClosed('stdout', dryRun);
    expect(r.code).toBe(0);
  });
});
