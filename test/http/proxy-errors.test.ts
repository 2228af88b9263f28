import { describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/http/proxy-env.js';
import { proxyUnreachable } from '../../src/http/proxy-errors.js';

/**
 * How a proxy's failure before the way to the server is open is worded (src/http/proxy-errors.ts):
 * reached or not, and what it was asked for. The failures no local server can produce on demand
 * (EADDRNOTAVAIL, EINVAL from the connect call) as Node reports them; the rest against real
 * proxies in test/http/proxy-answers.test.ts.
 */
const env = { HTTPS_PROXY: 'http://[::1]:3128', HTTP_PROXY: 'http://ops:secret@proxy.corp:3128' };
const route = (scheme: 'https' | 'http') => proxyRoutes(env)!.proxyFor(new URL(`${scheme}://api.example.com/api/v1`))!;
const failure = (code: string, message = `connect ${code}`) => Object.assign(new Error(message), { code });

describe('a proxy that closes the connection', () => {
  it('https URL: it did not answer the request for a tunnel (CONNECT)', () => {
    const e = proxyUnreachable(route('https'), failure('ECONNRESET', 'socket hang up'));
    expect(e.message).toBe('Proxy http://[::1]:3128 (HTTPS_PROXY) closed the connection without answering the request for a tunnel (ECONNRESET)');
    expect(e.retryable).toBe(true);
  });

  it('http URL: no tunnel was asked for, the request itself was not answered', () => {
    const e = proxyUnreachable(route('http'), failure('ECONNRESET', 'socket hang up'));
    expect(e.message).toBe('Proxy http://proxy.corp:3128 (HTTP_PROXY) closed the connection without answering the request (ECONNRESET)');
    expect(e.message).not.toContain('tunnel');
    expect(e.retryable).toBe(true);
  });
});

describe('a proxy that cannot be reached', () => {
  for (const code of ['EADDRNOTAVAIL', 'EINVAL'])
    for (const scheme of ['https', 'http'] as const)
      it(`${code} from connect (${scheme} URL): nothing connected, so "cannot be reached", not "closed the connection"`, () => {
        const e = proxyUnreachable(route(scheme), failure(code, `connect ${code} ::1:3128 - Local (:::0)`));
        expect(e.message).toBe(`Proxy ${scheme === 'https' ? 'http://[::1]:3128 (HTTPS_PROXY)' : 'http://proxy.corp:3128 (HTTP_PROXY)'} cannot be reached: ${code}`);
        expect(e.retryable).toBe(true);
      });

  it('refused and not found keep their words (positive control)', () => {
    expect(proxyUnreachable(route('https'), failure('ECONNREFUSED')).message).toBe('Proxy http://[::1]:3128 (HTTPS_PROXY) cannot be reached: connection refused');
    expect(proxyUnreachable(route('http'), failure('ENOTFOUND')).message).toBe('Proxy http://proxy.corp:3128 (HTTP_PROXY) cannot be reached: host not found');
  });
});
