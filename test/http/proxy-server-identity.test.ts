import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, startProxy, startTarget, TARGET_HOST, TARGET_IP } from './support.js';

/**
 * Through a CONNECT tunnel the server's certificate is checked against the URL's own host,
 * an IP address included (src/http/node-dispatcher.ts, serverIdentityOf): https-proxy-agent
 * starts TLS without the host when it is an IP, and Node would then check the certificate
 * against "localhost". A certificate for another name is refused before the key is sent: the
 * server's TLS wording, exit 8.
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey();

async function throughProxy(host: string, pki: Awaited<ReturnType<typeof makePki>>) {
  const target = await startTarget(undefined, pki);
  const proxy = await startProxy();
  const r = await runBin(['api', '/things', '--json'], {
    env: { CR_API_KEY: KEY, CR_BASE_URL: `https://${host}:${target.port}/api/v1`, NODE_EXTRA_CA_CERTS: pki.caFile, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` },
  });
  return { r, target, proxy };
}

describe('the server certificate through a CONNECT tunnel', () => {
  it('an IP-address URL whose certificate names only localhost: refused, nothing sent, exit 8', async () => {
    const { r, target, proxy } = await throughProxy(TARGET_IP, await makePki({ dns: ['localhost'], ips: [] }));
    expect(proxy.seen.map((s) => s.method)).toEqual(['CONNECT']);
    expect(r.exitCode, r.stderr).toBe(8);
    const error = JSON.parse(r.stderr) as { code: string; error: string };
    expect(error.error).toMatch(/certificate/i);
    expect(error.error).toContain(TARGET_IP);
    expect(target.seen).toEqual([]);
  });

  it('an IP-address URL whose certificate names that address: the request goes through (control)', async () => {
    const { r, target } = await throughProxy(TARGET_IP, await makePki({ dns: [], ips: [TARGET_IP] }));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(target.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${KEY}`]);
  });

  it('a host name whose certificate names another host: refused, nothing sent', async () => {
    const { r, target } = await throughProxy(TARGET_HOST, await makePki({ dns: ['localhost'], ips: [] }));
    expect(r.exitCode, r.stderr).toBe(8);
    expect(target.seen).toEqual([]);
  });
});
