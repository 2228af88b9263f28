import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { deadPort } from '../helpers/http-server.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startProxy, startTarget, TARGET_HOST } from './support.js';

/**
 * Proxies from the environment (src/http/proxy-env.ts): a real forward proxy (the `proxy`
 * package) between the built cr and a target only the proxy can reach by name. A process
 * per case: the variables are the process's own (test/README.md "Child processes").
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey();

function cr(baseUrl: string, env: Record<string, string>, args: string[] = []) {
  return runBin(['api', '/things', ...args], { env: { CR_API_KEY: KEY, CR_BASE_URL: baseUrl, NODE_EXTRA_CA_CERTS: pki.caFile, ...env } });
}

describe('https through a CONNECT tunnel', () => {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy']) {
    it(`${name}: the request goes through the proxy's tunnel, TLS and the key end to end`, async () => {
      const target = await startTarget(undefined, pki);
      const proxy = await startProxy();
      const r = await cr(`https://${TARGET_HOST}:${target.port}/api/v1`, { [name]: `http://127.0.0.1:${proxy.port}` });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ answered: true });
      expect(proxy.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`CONNECT ${TARGET_HOST}:${target.port}`]);
      // The key travels inside the tunnel only: the proxy never sees it.
      expect(proxy.seen[0]!.headers.authorization).toBeUndefined();
      expect(target.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    });
  }

  it('the proxy ignores the http variable for an https URL (HTTP_PROXY is for http URLs)', async () => {
    const proxy = await startProxy();
    const r = await cr(`https://${TARGET_HOST}:443/api/v1`, { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` }, ['--json']);
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'NETWORK_ERROR' });
    expect(proxy.seen).toEqual([]);
  });
});

describe('http forwarded by the proxy', () => {
  for (const name of ['HTTP_PROXY', 'http_proxy']) {
    it(`${name}: the proxy is sent the absolute URL and forwards it`, async () => {
      const target = await startTarget();
      const proxy = await startProxy();
      const r = await cr(`http://${TARGET_HOST}:${target.port}/api/v1`, { [name]: `127.0.0.1:${proxy.port}` });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ answered: true });
      expect(proxy.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET http://${TARGET_HOST}:${target.port}/api/v1/things`]);
      expect(target.seen).toHaveLength(1);
    });
  }
});

describe('NO_PROXY and loopback', () => {
  for (const [name, value] of [
    ['NO_PROXY', TARGET_HOST],
    ['no_proxy', `.test`],
    ['NO_PROXY', `other.example, *.test`],
    ['NO_PROXY', '*'],
  ] as const) {
    it(`${name}=${value}: no proxy (the name then resolves nowhere: Host not found)`, async () => {
      const proxy = await startProxy();
      const r = await cr(`http://${TARGET_HOST}:8080/api/v1`, { HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, [name]: value }, ['--json']);
      expect(r.exitCode).toBe(8);
      expect(JSON.parse(r.stderr).error).toMatch(/^Host not found/);
      expect(proxy.seen).toEqual([]);
    });
  }

  it('a NO_PROXY entry for another port still goes through the proxy (positive control)', async () => {
    const target = await startTarget();
    const proxy = await startProxy();
    const r = await cr(`http://${TARGET_HOST}:${target.port}/api/v1`, { HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: `${TARGET_HOST}:1` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen).toHaveLength(1);
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`${host} never goes through a proxy, even one that cannot be reached`, async () => {
      const target = await startTarget();
      const dead = await deadPort();
      const r = await cr(`http://${host}:${target.port}/api/v1`, { HTTP_PROXY: `http://127.0.0.1:${dead}`, ALL_PROXY: `http://127.0.0.1:${dead}` });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(target.seen).toHaveLength(1);
    });
  }
});

describe('credentials and failures', () => {
  it('user:password in the proxy URL: Proxy-Authorization sent; --verbose shows the proxy with the password masked', async () => {
    const target = await startTarget(undefined, pki);
    const proxy = await startProxy('ops:s3cret-pass');
    const r = await cr(`https://${TARGET_HOST}:${target.port}/api/v1`, { HTTPS_PROXY: `http://ops:s3cret-pass@127.0.0.1:${proxy.port}` }, ['--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`via proxy http://ops:****@127.0.0.1:${proxy.port} (HTTPS_PROXY)`);
    expect(r.stdout + r.stderr).not.toContain('s3cret-pass');
    expect(proxy.seen[0]!.method).toBe('CONNECT');
  });

  it('http: user:password sent to the forwarding proxy as Proxy-Authorization, never to the server', async () => {
    const target = await startTarget();
    const proxy = await startProxy('ops:s3cret-pass');
    const r = await cr(`http://${TARGET_HOST}:${target.port}/api/v1`, { http_proxy: `http://ops:s3cret-pass@127.0.0.1:${proxy.port}` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('ops:s3cret-pass').toString('base64')}`);
    expect(target.seen[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(target.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  for (const scheme of ['https', 'http'] as const) {
    it(`${scheme}: wrong credentials are the proxy's refusal (407), exit 8, PROXY_ERROR, never the password`, async () => {
      const target = await startTarget(undefined, scheme === 'https' ? pki : undefined);
      const proxy = await startProxy('ops:right');
      const variable = scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
      const r = await cr(`${scheme}://${TARGET_HOST}:${target.port}/api/v1`, { [variable]: `http://ops:wrong-pass@127.0.0.1:${proxy.port}` }, ['--json']);
      expect(r.exitCode).toBe(8);
      const err = JSON.parse(r.stderr);
      expect(err.code).toBe('PROXY_ERROR');
      expect(err.error).toContain(`Proxy http://127.0.0.1:${proxy.port} (${variable}) refused`);
      expect(err.error).toContain('407');
      expect(r.stderr).not.toContain('wrong-pass');
      expect(target.seen).toEqual([]);
      // Refused is refused: no retry.
      expect(proxy.seen).toHaveLength(1);
    });
  }

  it('a proxy that cannot be reached: its own error naming it without credentials, exit 8', async () => {
    const dead = await deadPort();
    const r = await cr(`https://${TARGET_HOST}/api/v1`, { HTTPS_PROXY: `http://ops:s3cret@127.0.0.1:${dead}` }, ['--json']);
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err).toMatchObject({ code: 'PROXY_ERROR' });
    expect(err.error).toContain(`Proxy http://127.0.0.1:${dead} (HTTPS_PROXY) cannot be reached: connection refused`);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('a proxy URL cr cannot use is a usage error naming the variable (exit 2)', async () => {
    const r = await cr(`https://${TARGET_HOST}/api/v1`, { https_proxy: 'socks5://127.0.0.1:1080' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('https_proxy');
  });
});
