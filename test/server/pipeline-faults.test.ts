import { afterAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { parseFaults } from '../../src/server/app/faults.js';
import { KEYS, startFixtureServer, type TestServer } from './helpers.js';

/**
 * `cr serve --faults` as a step of the request pipeline (src/server/app/faults.ts, pipeline.ts;
 * docs/fault-injection.md): after the Host check, logged like any answer, and a `drop` on a
 * path outside the endpoint table (the router's 404) closes the connection too.
 */
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop())));

/** A GET with the Host given: its status, or the connection's error code. */
function get(url: string, path: string, host: string): Promise<number | string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host, authorization: `Bearer ${KEYS.viewerW1}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    req.end();
  });
}

describe('faults in the pipeline', () => {
  it('a faulted answer has its request log line (cause=injected_fault); a refused Host gets its 403, unfaulted', async () => {
    const log: string[] = [];
    const srv = await startFixtureServer({ faults: parseFaults('*:status=503', 1), log: (l) => log.push(l) });
    servers.push(srv);
    expect(await get(srv.url, '/api/v1/intelligence/learnings', '127.0.0.1')).toBe(503);
    expect(log.filter((l) => / GET \/api\/v1\/intelligence\/learnings 503 .*cause=injected_fault/.test(l))).toHaveLength(1);
    expect(log.filter((l) => / fault GET /.test(l))).toHaveLength(1);
    expect(await get(srv.url, '/api/v1/intelligence/learnings', 'evil.example')).toBe(403);
    expect(log.filter((l) => / fault GET /.test(l))).toHaveLength(1);
  });

  it('a drop on a path outside the endpoint table (the router 404) closes the connection without an answer', async () => {
    const srv = await startFixtureServer({ faults: parseFaults('/no/such/path:drop', 1) });
    servers.push(srv);
    expect(await get(srv.url, '/api/v1/no/such/path', '127.0.0.1')).toBe('ECONNRESET');
    expect(await get(srv.url, '/api/v1/no/such/other', '127.0.0.1')).toBe(404);
  });
});
