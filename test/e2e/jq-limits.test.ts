import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { ok, useTestServer } from '../helpers/http-server.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';

/**
 * A runaway --jq program (docs/reliability.md "A runaway --jq"): its output is capped like a
 * response (CR_MAX_RESPONSE_BYTES, lowered here) and --timeout ends it. A real process, so a
 * regression is killed by the test's own bound instead of growing the test runner by gigabytes.
 * `profiles list` prints data without any request, so jq is all the command does.
 */
afterAll(() => cleanupTempDirs());
const srv = useTestServer({ ...ok({ n: 1 }), delayMs: 300 });

const jq = async (program: string, ...extra: string[]) => {
  const r = await runBin(['profiles', 'list', '--jq', program, ...extra], { env: { CR_MAX_RESPONSE_BYTES: String(256 * 1024) }, timeoutMs: 30_000 });
  // With no profile, `profiles list` first says so on stderr (docs/commands.md): the line before jq's.
  expect(r.stderr).toMatch(/^No profiles yet: .*\n/);
  return { ...r, stderr: r.stderr.replace(/^No profiles yet: .*\n/, '') };
};

describe('--jq limits', () => {
  it('output past the cap stops the program: exit 1, JQ_OUTPUT_TOO_LARGE, nothing on stdout', async () => {
    const r = await jq('repeat("x" * 1000)');
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --jq: the program was stopped: its output passed the 256 KiB cap (CR_MAX_RESPONSE_BYTES); nothing was printed (JQ_OUTPUT_TOO_LARGE)\n');
  }, 40_000);

  it('warnings past 1 MiB (debug in a loop) stop it the same way', async () => {
    const r = await jq('repeat(debug)');
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('its warnings passed 1 MiB; nothing was printed (JQ_OUTPUT_TOO_LARGE)');
  }, 40_000);

  it('a program that prints nothing and never ends stops at --timeout: exit 8, TIMEOUT', async () => {
    const r = await jq('last(repeat(1))', '--timeout', '0.5');
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toBe('error: --jq: the program was still running when --timeout 0.5 s ran out; nothing was printed (TIMEOUT)\n');
  }, 40_000);

  it('after a request, a runaway jq still stops at --timeout: exit 8, TIMEOUT', async () => {
    const r = await runBin(['api', '/finance/summary', '--jq', 'last(repeat(.n))', '--timeout', '1'], {
      env: { CR_API_KEY: makeKey(), CR_BASE_URL: srv.baseUrl },
      timeoutMs: 30_000,
    });
    expect(r.timedOut).toBe(false);
    expect(srv.requests).toHaveLength(1);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toBe('error: --jq: the program was still running when --timeout 1 s ran out; nothing was printed (TIMEOUT)\n');
  }, 40_000);

  it('output under the cap is printed whole', async () => {
    const r = await jq('range(3)');
    expect([r.exitCode, r.stdout]).toEqual([0, '0\n1\n2\n']);
  });
});
