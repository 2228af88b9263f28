import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { proxyRoutes } from '../../src/http/proxy-env.js';

/** Which URL goes through which proxy (src/http/proxy-env.ts), as curl and Go read the variables. */
const via = (env: Record<string, string>, url: string) => proxyRoutes(env)?.proxyFor(new URL(url))?.url.host;

describe('proxy variables', () => {
  it('none set: no routes at all (no proxy code is used)', () => {
    expect(proxyRoutes({ NO_PROXY: 'x', PATH: '/bin' })).toBeUndefined();
    expect(proxyRoutes({ HTTPS_PROXY: '  ' })).toBeUndefined();
  });

  it('the scheme picks the variable; ALL_PROXY is the fallback; lower case wins over upper case', () => {
    const env = { HTTPS_PROXY: 's:1', HTTP_PROXY: 'h:2', ALL_PROXY: 'a:3' };
    expect(via(env, 'https://api.example.com/')).toBe('s:1');
    expect(via(env, 'http://api.example.com/')).toBe('h:2');
    expect(via({ ALL_PROXY: 'a:3' }, 'https://api.example.com/')).toBe('a:3');
    expect(via({ all_proxy: 'a:3', HTTP_PROXY: 'h:2' }, 'https://api.example.com/')).toBe('a:3');
    expect(via({ https_proxy: 'low:1', HTTPS_PROXY: 'up:2' }, 'https://x.example/')).toBe('low:1');
    expect(proxyRoutes({ HTTPS_PROXY: 'https://p:8443' })?.proxyFor(new URL('https://x.example/'))).toMatchObject({ variable: 'HTTPS_PROXY' });
  });

  it('a proxy URL that is not http(s) or not a URL: a usage error naming the variable, for the requests that would use it', () => {
    expect(() => via({ https_proxy: 'socks5://p:1080' }, 'https://x.example/')).toThrow(UsageError);
    expect(() => via({ HTTP_PROXY: 'http://[bad' }, 'http://x.example/')).toThrow(/HTTP_PROXY/);
    // Set for other tools, it does not stop what goes direct or through another variable's proxy.
    expect(via({ ALL_PROXY: 'socks5://p:1080', HTTPS_PROXY: 's:1' }, 'https://x.example/')).toBe('s:1');
    expect(via({ ALL_PROXY: 'socks5://p:1080', NO_PROXY: 'x.example' }, 'http://x.example/')).toBeUndefined();
    expect(via({ ALL_PROXY: 'socks5://p:1080' }, 'http://localhost/')).toBeUndefined();
  });
});

describe('NO_PROXY and loopback', () => {
  const p = { HTTPS_PROXY: 'p:1', HTTP_PROXY: 'p:1' };
  const cases: [string, string, boolean][] = [
    // [NO_PROXY, URL, goes through the proxy]
    ['example.com', 'https://example.com/', false],
    ['example.com', 'https://api.example.com/', false],
    ['.example.com', 'https://example.com/', false],
    ['.example.com', 'https://api.example.com/', false],
    ['*.example.com', 'https://api.example.com/', false],
    ['example.com', 'https://badexample.com/', true],
    ['example.com:8443', 'https://example.com:8443/', false],
    ['example.com:8443', 'https://example.com/', true],
    ['example.com:443', 'https://example.com/', false],
    ['10.1.2.3', 'http://10.1.2.3/', false],
    ['10.0.0.0/8', 'http://10.200.0.1/', false],
    ['10.0.0.0/8', 'http://11.0.0.1/', true],
    ['[2001:db8::1]', 'http://[2001:db8::1]/', false],
    // IP addresses by value, as Go compares them, not as text.
    ['2001:db8:0:0:0:0:0:1', 'http://[2001:db8::1]/', false],
    ['2001:0db8::0001', 'http://[2001:db8::1]/', false],
    ['2001:DB8::1', 'http://[2001:db8::1]/', false],
    ['[2001:db8:0::1]:4100', 'http://[2001:db8::1]:4100/', false],
    ['[2001:db8:0::1]:4100', 'http://[2001:db8::1]:4101/', true],
    ['2001:db8:0:0:0:0:0:1', 'http://[2001:db8::2]/', true],
    ['[2001:db8::1]', 'http://[2001:db8:0:0:0:0:0:1]/', false],
    ['::ffff:10.1.2.3', 'http://10.1.2.3/', false],
    ['10.1.2.3', 'http://[::ffff:10.1.2.3]/', false],
    ['10.1.2.3', 'http://10.1.2.30/', true],
    ['2001:0db8::/32', 'http://[2001:db8:ffff::5]/', false],
    ['2001:db8::/32', 'http://[2001:db8::5]/', false],
    ['a.test, b.test other.test', 'https://other.test/', false],
    ['*', 'https://anything.example/', false],
    ['', 'https://anything.example/', true],
    ['', 'http://localhost:8080/', false],
    ['', 'http://127.0.0.1/', false],
    ['', 'http://127.9.9.9/', false],
    ['', 'http://[::1]:3000/', false],
    ['', 'http://128.0.0.1/', true],
  ];
  for (const [noProxy, url, proxied] of cases) {
    it(`NO_PROXY="${noProxy}" ${url}: ${proxied ? 'proxy' : 'direct'}`, () => {
      expect(via({ ...p, NO_PROXY: noProxy }, url) !== undefined).toBe(proxied);
      expect(via({ ...p, no_proxy: noProxy }, url) !== undefined).toBe(proxied);
    });
  }
});
