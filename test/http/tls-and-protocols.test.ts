import { createSecureServer, createServer as createH2cServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startTarget } from './support.js';

/**
 * Certificate failures in one wording that says what failed and how to trust a CA, and an
 * HTTP/2-only server named as such rather than read as a 403 (src/http/network-errors.ts).
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
const h2: Http2Server[] = [];
afterEach(async () => {
  await closeAll();
  for (const s of h2.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => cleanupTempDirs());

const env = (baseUrl: string) => ({ CR_API_KEY: makeKey(), CR_BASE_URL: baseUrl });

describe('certificates', () => {
  it('a certificate from a CA this Node does not know: says so and how to trust a CA, exit 8, TLS_CERTIFICATE, no retry', async () => {
    const srv = await startTarget(undefined, pki);
    const r = await runCli(['api', '/x', '--json'], { env: env(`https://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('TLS_CERTIFICATE');
    expect(err.error).toContain("The server's TLS certificate is not trusted: no certificate authority this Node knows vouches for it (UNABLE_TO_VERIFY_LEAF_SIGNATURE)");
    expect(err.error).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(err.error).toContain('NODE_USE_SYSTEM_CA=1');
    expect(srv.seen).toEqual([]);
  });

  it('the same server once its CA is given with NODE_EXTRA_CA_CERTS: answered (positive control)', async () => {
    const srv = await startTarget(undefined, pki);
    const r = await runBin(['api', '/x'], { env: { ...env(`https://127.0.0.1:${srv.port}/api/v1`), NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ answered: true });
  });
});

describe('HTTP/2-only servers', () => {
  async function listen(server: Http2Server): Promise<number> {
    // The compatibility API answers HTTP/2 and, with allowHTTP1, HTTP/1.1 alike.
    server.on('request', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { over: 'http/1.1' } }));
    });
    h2.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }

  it('over TLS (ALPN h2 only; Node answers HTTP/1.1 there with a 403): named as HTTP/2-only, exit 8, not a 403', async () => {
    const port = await listen(createSecureServer({ key: pki.key, cert: pki.cert }));
    const r = await runBin(['api', '/x', '--json'], { env: { ...env(`https://127.0.0.1:${port}/api/v1`), NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err).toMatchObject({ code: 'HTTP2_ONLY', status: null });
    expect(err.error).toContain('The server speaks HTTP/2 only');
  });

  it('in clear text (h2c): named as HTTP/2-only', async () => {
    const port = await listen(createH2cServer());
    const r = await runCli(['api', '/x', '--json'], { env: env(`http://127.0.0.1:${port}/api/v1`) });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'HTTP2_ONLY' });
  });

  it('a server that also speaks HTTP/1.1 is answered over it (positive control)', async () => {
    const port = await listen(createSecureServer({ key: pki.key, cert: pki.cert, allowHTTP1: true }));
    const r = await runBin(['api', '/x'], { env: { ...env(`https://127.0.0.1:${port}/api/v1`), NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ over: 'http/1.1' });
  });
});
