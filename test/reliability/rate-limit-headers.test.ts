import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { fail, ok, useTestServer } from '../helpers/http-server.js';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
import { cliEnv, csvPlan, ids } from '../bulk/support.js';
import { spawnBin } from '../helpers/cli.js';
import { FaultSpecError, parseFaults } from '../../src/server/app/faults.js';

/**
 * Rate-limit headers out of range (docs/reliability.md "Rate-limit headers out of range"): a
 * reset or Retry-After more than a week ahead is ignored as if not sent, in every place that
 * reads them. A real server cannot send such headers, so a scriptable one on 127.0.0.1 does.
 */

const HUGE = '99999999999999';
const srv = useTestServer(ok({}));
afterAll(() => cleanupTempDirs());

const env = () => ({ CR_API_KEY: makeKey(), CR_BASE_URL: srv.baseUrl });
const limited = (headers: Record<string, string>) => ({ ...fail(429, 'Rate limit exceeded', 'RATE_LIMITED'), headers });

describe('rate-limit headers out of range', () => {
  it('a 200 with X-RateLimit-Reset: 99999999999999 and the budget low: the data is printed, exit 0, no notice with a bogus time', async () => {
    srv.handle({ ...ok({ total: 42 }), headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': HUGE } });
    const r = await runCli(['api', '/finance/summary', '--json'], { env: env() });
    expect(r.stderr).not.toMatch(/Invalid time value|INTERNAL/);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ total: 42 });
  });

  it('a 429 with Retry-After: 99999999999999 is exit 7, "retry after a while"', async () => {
    srv.handle(limited({ 'retry-after': HUGE }));
    const r = await runCli(['api', '/finance/summary'], { env: env() });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/^error: Rate limit exceeded; retry after a while \(GET .*\) \(RATE_LIMITED\)\n$/);
  });

  it('a 429 with a huge X-RateLimit-Reset falls back to a sane Retry-After', async () => {
    srv.handle(limited({ 'retry-after': '3600', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': HUGE }));
    const r = await runCli(['api', '/finance/summary'], { env: env() });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/retry after \d{2}:\d{2} \(in 60 min\)/);
  });

  it('posts schedule --from --wait: a huge Retry-After on a 429 waits the default minute (not forever, no crash); Ctrl-C ends it', async () => {
    srv.handle(limited({ 'retry-after': HUGE, 'x-ratelimit-reset': HUGE }));
    const child = spawnBin(['posts', 'schedule', '--from', csvPlan(tempDir('cr-rl-'), ids(2)), '--wait', '--concurrency', '1'], { env: cliEnv(srv.baseUrl), timeoutMs: 30_000 });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await expect.poll(() => /waiting \d+ s|error:/.test(err), { timeout: 20_000 }).toBe(true);
    expect(err).not.toMatch(/Invalid time value|INTERNAL/);
    const secs = Number(/waiting (\d+) s for the window to reset/.exec(err)?.[1]);
    expect(secs).toBeGreaterThanOrEqual(55);
    expect(secs).toBeLessThanOrEqual(62);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(srv.requests).toHaveLength(1);
  }, 30_000);

  it('cr serve --faults retry_after is 0 to 86400 seconds; more is a usage error naming the bound', async () => {
    expect(parseFaults('*:status=429,retry_after=86400', 1).rules[0]!.fault).toMatchObject({ retryAfter: 86_400 });
    expect(() => parseFaults(`*:status=429,retry_after=${HUGE}`, 1)).toThrow(FaultSpecError);
    const r = await runCli(['serve', '--port', '0', '--store', `${tempDir('cr-rl-store-')}/s.json`, '--faults', `*:status=429,retry_after=${HUGE}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--faults: "*:status=429,retry_after=${HUGE}": retry_after must be whole seconds from 0 to 86400, got "${HUGE}"`);
  });
});
