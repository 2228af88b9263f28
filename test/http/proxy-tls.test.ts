import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startProxy, startTarget, TARGET_HOST } from './support.js';

/**
 * An https:// proxy (TLS to the proxy, src/http/proxy-agents.ts): a real forward proxy over
 * TLS with a certificate from a CA the test makes. One the run trusts carries the request; one
 * it does not is named with the certificate wording (src/http/proxy-errors.ts,
 * proxyCertificate): the proxy and its variable, not the server; not retried; exit 8.
 */
let trusted: Pki;
let untrusted: Pki;
beforeAll(async () => {
  [trusted, untrusted] = await Promise.all([makePki(), makePki()]);
});
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey();

function cr(baseUrl: string, env: Record<string, string>) {
  return runBin(['api', '/things', '--json'], { env: { CR_API_KEY: KEY, CR_BASE_URL: baseUrl, NODE_EXTRA_CA_CERTS: trusted.caFile, ...env } });
}

describe('an https:// proxy', () => {
  it('with a certificate the run trusts: the request goes through its tunnel (control)', async () => {
    const target = await startTarget(undefined, trusted);
    const proxy = await startProxy(undefined, trusted);
    const r = await cr(`https://${TARGET_HOST}:${target.port}/api/v1`, { HTTPS_PROXY: `https://127.0.0.1:${proxy.port}` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.seen.map((s) => s.method)).toEqual(['CONNECT']);
  });

  it.each([
    ['https', 'HTTPS_PROXY'],
    ['http', 'HTTP_PROXY'],
  ])('whose certificate the run does not trust, for an %s URL: named as the proxy’s certificate with its variable, asked once, exit 8', async (scheme, variable) => {
    const target = await startTarget(undefined, scheme === 'https' ? trusted : undefined);
    const proxy = await startProxy(undefined, untrusted);
    const r = await cr(`${scheme}://${TARGET_HOST}:${target.port}/api/v1`, { [variable]: `https://127.0.0.1:${proxy.port}` });
    expect(r.exitCode).toBe(8);
    const error = JSON.parse(r.stderr) as { code: string; error: string };
    expect(error.code).toBe('PROXY_ERROR');
    // Both test CAs share a name, so OpenSSL reports a bad signature rather than an unknown CA: either is the certificate's wording.
    expect(error.error).toContain(`Proxy https://127.0.0.1:${proxy.port} (${variable}): The proxy's TLS certificate `);
    expect(error.error).toMatch(/certificate (is not trusted|could not be verified) \(\w+\)\./);
    expect(error.error).toContain('NODE_EXTRA_CA_CERTS');
    expect(error.error).not.toMatch(/cannot be reached|The server's/);
    expect(proxy.connections()).toBe(1);
    expect(target.seen).toEqual([]);
  });
});
