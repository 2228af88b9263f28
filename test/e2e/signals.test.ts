import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { startTestServer, ok, type TestServer } from '../helpers/http-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...ok({}), delayMs: 10_000 });
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('Ctrl-C', () => {
  it('SIGINT during a request → exit 130 with an Interrupted error line', async () => {
    const child = spawnBin(['api', '/slow'], { timeoutMs: 15_000, env: { CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl } });
    // Wait until the request reached the server, then interrupt.
    const deadline = Date.now() + 10_000;
    while (server.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(server.requests).toHaveLength(1);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toMatch(/^error: Interrupted \(INTERRUPTED\)$/m);
    expect(String(r.stdout)).toBe('');
  });
});

describe('Ctrl-C while --jq runs', () => {
  // jq runs to completion once started: a program that takes long (or never ends) must still
  // give way to SIGINT, as any other command does (docs/cli-contract.md §7.1).
  it('SIGINT during a long --jq program → exit 130 with an Interrupted error line', async () => {
    const fast = await startTestServer(ok({ n: 1 }));
    try {
      const child = spawnBin(['api', '/fast', '--jq', 'last(range(1e12))'], { timeoutMs: 15_000, env: { CR_API_KEY: makeKey(), CR_BASE_URL: fast.baseUrl } });
      const deadline = Date.now() + 10_000;
      while (fast.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(fast.requests).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 300)); // the answer is in; jq is running
      child.kill('SIGINT');
      const r = await child;
      expect(r.timedOut).toBe(false);
      expect(r.exitCode).toBe(130);
      expect(String(r.stderr)).toMatch(/^error: Interrupted \(INTERRUPTED\)$/m);
    } finally {
      await fast.close();
    }
  });
});
