import { createSecureServer, type Http2Server } from 'node:http2';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startProxy, TARGET_HOST } from './support.js';

/**
 * What a proxy's answers and failures are reported as (src/http/proxy-errors.ts,
 * src/http/node-dispatcher.ts): the built cr against a real proxy (the `proxy` package) or a
 * raw socket on 127.0.0.1 playing a broken one.
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
const servers: (Http2Server | Server)[] = [];
afterEach(async () => {
  await closeAll();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => cleanupTempDirs());

const KEY = makeKey('5a5a', '5b5b');

function cr(baseUrl: string, env: Record<string, string>) {
  return runBin(['api', '/things', '--json'], { env: { CR_API_KEY: KEY, CR_BASE_URL: baseUrl, NODE_EXTRA_CA_CERTS: pki.caFile, ...env } });
}

async function listen<S extends Http2Server | Server>(server: S): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('through a CONNECT tunnel', () => {
  it('an HTTP/2-only server is named as such (ALPN offered inside the tunnel), exit 8, not a 403', async () => {
    const port = await listen(createSecureServer({ key: pki.key, cert: pki.cert }, (_req, res) => res.end('{}')));
    const proxy = await startProxy();
    const r = await cr(`https://${TARGET_HOST}:${port}/api/v1`, { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });
    expect(r.exitCode, r.stderr).toBe(8);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'HTTP2_ONLY' });
    expect(proxy.seen.map((s) => s.method)).toEqual(['CONNECT']);
  });
});

describe('credentials', () => {
  it('a 407 after credentials were given says the proxy rejected them, not to add some', async () => {
    const proxy = await startProxy('ops:right');
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTPS_PROXY: `http://ops:wrong-pass@127.0.0.1:${proxy.port}` });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr).error as string;
    expect(err).toContain('rejected the credentials given');
    expect(err).not.toContain('put user:password@');
    expect(r.stderr).not.toContain('wrong-pass');
  });

  it('a 407 without credentials says to give them (positive control)', async () => {
    const proxy = await startProxy('ops:right');
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr).error).toContain('put user:password@ in the proxy URL');
  });
});

describe('a proxy that closes the connection', () => {
  /** A raw "proxy" on 127.0.0.1 that reads the CONNECT, then `reply`s (or not) and closes. */
  async function closingProxy(reply: string): Promise<number> {
    return listen(
      createServer((socket) => {
        socket.once('data', () => socket.end(reply));
        socket.on('error', () => undefined);
      }),
    );
  }

  it('before answering CONNECT: it was reached, and said so (not "cannot be reached")', async () => {
    const port = await closingProxy('');
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('PROXY_ERROR');
    expect(err.error).toContain(`Proxy http://127.0.0.1:${port} (HTTPS_PROXY) closed the connection without answering the request for a tunnel`);
    expect(err.error).not.toContain('cannot be reached');
  });

  it('an http URL through HTTP_PROXY, reset before an answer: it did not answer the request (no tunnel was asked for)', async () => {
    let asked = 0;
    const port = await listen(
      createServer((socket) => {
        socket.once('data', () => {
          asked++;
          socket.resetAndDestroy();
        });
        socket.on('error', () => undefined);
      }),
    );
    const r = await cr(`http://${TARGET_HOST}:8080/api/v1`, { HTTP_PROXY: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('PROXY_ERROR');
    expect(err.error).toBe(`Proxy http://127.0.0.1:${port} (HTTP_PROXY) closed the connection without answering the request (ECONNRESET) (GET http://${TARGET_HOST}:8080/api/v1/things)`);
    // A proxy that was reached may answer next time: retried, as before.
    expect(asked).toBe(3);
  });

  it('after answering 200 to CONNECT: the tunnel is named, not "reset by the server"', async () => {
    const port = await closingProxy('HTTP/1.1 200 Connection established\r\n\r\n');
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('PROXY_ERROR');
    expect(err.error).toContain(`opened the tunnel to ${TARGET_HOST}:443, then the connection closed before the server answered`);
    expect(err.error).not.toContain('Connection reset by the server');
  });

  it('a 100 KB proxy host is cut in the error', async () => {
    const host = `${'a'.repeat(63)}.`.repeat(1600).slice(0, 100_000);
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTPS_PROXY: `http://${host}:3128` });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.length).toBeLessThan(2000);
  });
});
