import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { startServer, type RunningServer } from '../../../src/server/serve.js';
import { newStore } from '../../helpers/store-under-test.js';

/**
 * The key's rate budget for people (docs/cli-contract.md "Local mode in CI", docs/api-decisions.md "Limits"):
 * `cr auth status` shows it from its check request, a command whose answer leaves fewer than
 * 10 % prints one notice on stderr, and a 429 names the reset as a local clock time. Against
 * the real local server with `--rate-limit 10`.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => cleanupTempDirs());

async function limited(limit: number): Promise<{ env: Record<string, string>; base: string; key: string }> {
  const dir = tempDir('cr-budget-');
  // A file, or in the `commands-pg` project a database that `cr local init` fills.
  const store = await newStore(dir);
  const init = await runCli(['local', 'init', '--store', store, '--demo'], { configDir: dir });
  expect(init.exitCode).toBe(0);
  const key = init.stdout.trim();
  server = await startServer({ storePath: store, port: 0, rateLimit: limit, log: false });
  const base = `${server.url}/api/v1`;
  return { env: { CR_API_KEY: key, CR_BASE_URL: base }, base, key };
}

const spend = async (base: string, key: string, n: number) => {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/finance/summary`, { headers: { authorization: `Bearer ${key}` } });
    await res.body?.cancel();
    expect(res.status).toBe(200);
  }
};

const CLOCK = String.raw`\d{2}:\d{2} \(in (59|60) min\)`;

describe('cr auth status: the rate budget', () => {
  it('shows requests left and the reset time from its check request; --json includes them', async () => {
    const { env } = await limited(10);
    const text = await runCli(['auth', 'status'], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^rate limit\\t9 of 10 requests left; resets ${CLOCK}$`, 'm'));

    const json = await runCli(['auth', 'status', '--json'], { env });
    expect(json.exitCode).toBe(0);
    const rl = (JSON.parse(json.stdout) as { rateLimit: { limit: number; remaining: number; reset: string } }).rateLimit;
    expect(rl).toMatchObject({ limit: 10, remaining: 8 });
    const inMs = Date.parse(rl.reset) - Date.now();
    expect(inMs).toBeGreaterThan(55 * 60_000);
    expect(inMs).toBeLessThanOrEqual(3_601_000); // the header's whole seconds
  });

  it('shows the profile and exits 3 when the server rejects the key', async () => {
    const { base } = await limited(10);
    const r = await runCli(['auth', 'status'], { env: { CR_API_KEY: 'cr_' + '0'.repeat(40), CR_BASE_URL: base } });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('rate limit\t(check failed)');
  });
});

describe('a command near the end of its budget', () => {
  it('prints one notice on stderr below 10 % left (with --json too), and a 429 names the reset in local time', async () => {
    const { env, base, key } = await limited(10);
    await spend(base, key, 8);
    const ninth = await runCli(['finance', 'summary', '--json'], { env });
    expect(ninth.exitCode).toBe(0);
    expect(ninth.stderr).not.toContain('rate limit'); // 1 of 10 left is not below 10 %

    const tenth = await runCli(['finance', 'summary', '--json'], { env });
    expect(tenth.exitCode).toBe(0);
    JSON.parse(tenth.stdout); // stdout stays pure JSON
    expect(tenth.stderr).toMatch(new RegExp(`^cr: rate limit: 0 of 10 requests left for this key until ${CLOCK}\\n$`));

    const limitedOut = await runCli(['finance', 'summary'], { env });
    expect(limitedOut.exitCode).toBe(7);
    expect(limitedOut.stderr).toMatch(new RegExp(`Rate limit exceeded; retry after ${CLOCK}`));
    expect(limitedOut.stderr).not.toContain('hour');
    expect(limitedOut.stderr.match(/rate limit/gi)).toHaveLength(1); // the error alone, no notice beside it
  });

  it('-q keeps stderr for errors only: no budget notice below 10 %', async () => {
    const { env, base, key } = await limited(10);
    await spend(base, key, 9);
    const quiet = await runCli(['brand', 'subjects', '-q'], { env });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
