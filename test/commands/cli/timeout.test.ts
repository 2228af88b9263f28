import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../../helpers/tmp.js';
import { fail, ok, startTestServer, type TestServer } from '../../helpers/http-server.js';

// A scriptable server: a real one cannot be made slow or answer 503 on demand.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => server.reset());
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

const env = () => ({ CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl });

describe('--timeout is the deadline of the whole command (docs/cli-contract.md "At a terminal")', () => {
  it('a server that does not answer: the first attempt takes the whole deadline, no retry after it', async () => {
    server.handle({ ...ok({}), delayMs: 5_000 });
    const r = await runCli(['api', '/slow', '--timeout', '0.3'], { env: env() });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/^error: Timed out after 0\.3 s \(--timeout, retries included\)/);
    // Its own code, told apart from a refused connection (NETWORK_ERROR); the exit stays 8.
    expect(r.stderr).toMatch(/\(TIMEOUT\)\n$/);
    // Per attempt, this was three requests of 0.3 s each.
    expect(server.requests).toHaveLength(1);
  });

  it('no retry when the pause before it would pass the deadline', async () => {
    server.handle(fail(503, 'Unavailable'));
    const slowRetries = { ...env(), CR_RETRY_BASE_MS: '5000' };
    const bounded = await runCli(['api', '/busy', '--timeout', '1'], { env: slowRetries });
    expect(bounded.exitCode).toBe(8);
    expect(server.requests).toHaveLength(1);
    server.reset();
    // Without --timeout the same run retries (3 attempts); short pauses keep it quick.
    const unbounded = await runCli(['api', '/busy'], { env: env() });
    expect(unbounded.exitCode).toBe(8);
    expect(server.requests).toHaveLength(3);
  });

  it('a refused connection keeps NETWORK_ERROR, also exit 8', async () => {
    const r = await runCli(['api', '/x', '--timeout', '2'], { env: { ...env(), CR_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/\(NETWORK_ERROR\)\n$/);
  });

  it.each(['1e9', '86401', '0', '-1', 'soon'])('--timeout %s is a usage error naming the bound, nothing sent', async (value) => {
    const r = await runCli(['api', '/x', '--timeout', value], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --timeout must be (a positive number of seconds|at most 86400 seconds \(one day\))/);
    expect(r.stderr).not.toContain('out of range');
    expect(server.requests).toHaveLength(0);
  });
});
