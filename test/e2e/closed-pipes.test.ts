/**
 * `cr … | head` and `cr … 2>&1 | head -1`: the reader leaves early. Only a real process
 * with real pipes shows what happens then (an EPIPE on the next write).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, spawnBin } from '../helpers/cli.js';
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

describe('standard output on a file that takes nothing (/dev/full)', () => {
  // A run that wrote nothing to stdout ends with its own code: no empty write at exit fails it.
  const toFull = ['sh', '-c', 'exec "$@" > /dev/full', 'sh'];

  it('a usage error keeps exit 2, its message on stderr', async () => {
    const r = await runBin(['finance', 'summary', '--bogus'], { via: toFull });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
    expect(r.stderr).not.toContain('cannot write to standard output');
  });

  it('output that cannot be written is still one line and exit 1 (control)', async () => {
    const r = await runBin(dryRun, { via: toFull });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n').pop()).toBe('cr: cannot write to standard output (ENOSPC)');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
