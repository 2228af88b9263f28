import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startTarget } from './support.js';

/**
 * Each certificate failure with its own advice, and a malformed answer not retried
 * (src/http/network-errors.ts), against servers on 127.0.0.1.
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
const raw: Server[] = [];
afterEach(async () => {
  await closeAll();
  for (const s of raw.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => cleanupTempDirs());

const env = (baseUrl: string) => ({ CR_API_KEY: makeKey(), CR_BASE_URL: baseUrl });

describe('certificate advice', () => {
  it('a certificate for another host name: said so, and trusting a CA is not the advice', async () => {
    const srv = await startTarget(undefined, pki);
    const r = await runBin(['api', '/x', '--json'], { env: { ...env(`https://localhost:${srv.port}/api/v1`), NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('TLS_CERTIFICATE');
    expect(err.error).toContain('for another host name');
    expect(err.error).toContain('Trusting another CA does not fix this');
    expect(err.error).not.toContain('NODE_EXTRA_CA_CERTS');
  });
});

describe('a malformed answer', () => {
  it('a control character in a Location: a clear error, asked once (not retried)', async () => {
    let asked = 0;
    const server = createServer((socket) => {
      socket.once('data', () => {
        asked++;
        socket.end('HTTP/1.1 302 Found\r\nLocation: http://x.example/\u0001a\r\nContent-Length: 0\r\n\r\n');
      });
    });
    raw.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const r = await runCli(['api', '/x', '--json'], { env: env(`http://127.0.0.1:${port}/api/v1`) });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr).error).toContain("The server's answer is not valid HTTP");
    expect(asked).toBe(1);
  });

  it('a header larger than the limit (one 100 KB line, Headers Overflow): said not valid HTTP, asked once (not retried)', async () => {
    const srv = await startTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(100_000) });
      res.end(JSON.stringify({ success: true, data: {} }));
    });
    const r = await runCli(['api', '/x', '--json', '--verbose'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(err.error).toContain("The server's answer is not valid HTTP: its headers pass this Node's limit of");
    expect(err.error).toContain('(Headers Overflow); NODE_OPTIONS=--max-http-header-size=BYTES raises it');
    expect(err.code).toBe('NETWORK_ERROR');
    expect(r.stderr).not.toContain('retrying');
    expect(srv.seen).toHaveLength(1);
  });

  it('the same server with a header under the limit answers (positive control)', async () => {
    const srv = await startTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(8_000) });
      res.end(JSON.stringify({ success: true, data: { fine: true } }));
    });
    const r = await runCli(['api', '/x'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ fine: true });
  });

  it('a connection reset before any answer is still retried (positive control: not every failure is a malformed answer)', async () => {
    let asked = 0;
    const server = createServer((socket) => {
      socket.once('data', () => {
        asked++;
        socket.resetAndDestroy();
      });
    });
    raw.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const r = await runCli(['api', '/x', '--json'], { env: env(`http://127.0.0.1:${port}/api/v1`) });
    expect(r.exitCode).toBe(8);
    expect(asked).toBe(3);
  });
});
