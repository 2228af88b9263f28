import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/cli.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
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

describe('Ctrl-C during a bulk run', () => {
  // The run gives the sends in flight a moment, reports them not sent and ends: the process
  // must not then wait for their answers (here 10 s away) while closing its connections.
  it('SIGINT while a send waits for its answer → exit 130 at once, the row reported not sent', async () => {
    const plan = join(tempDir('cr-bulk-'), 'plan.csv');
    writeFileSync(plan, 'id,at\n3b2f9c1e-2d1a-4c8e-9a51-7d0e4f2b6e91,+1d\n');
    const before = server.requests.length;
    const child = spawnBin(['posts', 'schedule', '--from', plan, '--json'], { timeoutMs: 6_000, env: { CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl } });
    const deadline = Date.now() + 5_000;
    while (server.requests.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(server.requests.length).toBe(before + 1);
    child.kill('SIGINT');
    const r = await child;
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(130);
    expect(String(r.stdout)).toContain('"status":"not_sent"');
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
