import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../../helpers/tmp.js';

/**
 * A body without end (a real server cannot be made to send one): the CLI stops reading at
 * its cap. The stub streams until the client goes away, and never past 32 MiB or 10 s.
 */
let server: Server;
let baseUrl: string;
let requests = 0;
let disconnects = 0;
let sentMax = 0;
const open = new Set<ServerResponse>();
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    open.add(res);
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let sent = 0;
    const started = Date.now();
    const pump = () => {
      while (!res.destroyed && sent < 32 * 1024 * 1024 && Date.now() - started < 10_000) {
        sent += chunk.length;
        sentMax = Math.max(sentMax, sent);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => {
      open.delete(res);
      disconnects++;
    });
    res.write('{"success":true,"data":"');
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((r) => server.close(r));
  cleanupTempDirs();
});

describe('the response size cap', () => {
  it('an endless body stops at the cap: RESPONSE_TOO_LARGE, exit 8, no retry, the connection dropped', async () => {
    const r = await runCli(['finance', 'summary'], { env: { CR_API_KEY: makeKey(), CR_BASE_URL: baseUrl, CR_MAX_RESPONSE_BYTES: String(256 * 1024) } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/^error: Response too large: more than the 256 KiB cap \(CR_MAX_RESPONSE_BYTES\) \(GET .*\) \(RESPONSE_TOO_LARGE\)\n$/);
    expect(requests).toBe(1);
    await expect.poll(() => disconnects, { timeout: 5_000 }).toBe(1);
    // The stub stopped soon after the cap, far from its own 32 MiB bound.
    expect(sentMax).toBeLessThan(16 * 1024 * 1024);
  });

  it('--json carries the code', async () => {
    const r = await runCli(['api', '/finance/summary', '--json'], { env: { CR_API_KEY: makeKey(), CR_BASE_URL: baseUrl, CR_MAX_RESPONSE_BYTES: '100000' } });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'RESPONSE_TOO_LARGE', status: null });
  });
});
