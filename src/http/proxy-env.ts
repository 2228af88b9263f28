import { BlockList, isIP } from 'node:net';
import { UsageError } from '../errors.js';
import { FALLBACK_VARS, firstSet, proxyConfigured, SCHEME_VARS } from './proxy-vars.js';

/**
 * Which proxy a request goes through, read from the environment the way curl and Go read it
 * (docs/install.md "Proxies"; `cr help environment`):
 * - HTTPS_PROXY / https_proxy for an https URL, HTTP_PROXY / http_proxy for an http one,
 *   ALL_PROXY / all_proxy when the scheme's own is not set; the lower-case name wins when
 *   both are set (curl), an empty value is no value;
 * - NO_PROXY / no_proxy: a comma- or space-separated list of `*` (no proxy at all), host
 *   names (matching the name and every name under it, with or without a leading dot or `*.`),
 *   IP addresses and IPv4/IPv6 ranges (`10.0.0.0/8`), compared by value (as Go does, not as
 *   text: `2001:db8:0:0:0:0:0:1` is the URL's `[2001:db8::1]`), each optionally with `:port`;
 * - loopback hosts (localhost, 127.0.0.0/8, ::1) never go through a proxy.
 * The environment is the run's (Context), never process.env (test/architecture).
 */
export interface ProxyRoutes {
  /** The proxy for this URL (and the variable that set it), or undefined to connect directly. */
  proxyFor(url: URL): ProxyRoute | undefined;
}

export interface ProxyRoute {
  url: URL;
  variable: string;
  /** Whether the proxy is asked for a tunnel (CONNECT, for an https URL) or to forward the request (an http URL). */
  tunnel: boolean;
}

/** A proxy URL as written in a variable (`host:port` means http://host:port, as for curl). */
function parseProxyUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new UsageError(`${name} is not a proxy URL`, 'write it as http://host:port (user:password@ before the host when the proxy asks for them)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name}: cr speaks to http:// and https:// proxies, not ${url.protocol}//`, 'point it at an HTTP proxy (http://host:port)');
  return url;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The host of a URL as compared: lower case, no brackets around IPv6, no trailing dot. */
const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

interface NoProxyEntry {
  host: string;
  port?: string;
  /** The addresses an IP entry stands for: one address, or a range; compared by value. */
  range?: BlockList;
}

const familyOf = (ip: string) => (isIP(ip) === 4 ? 'ipv4' : 'ipv6');

/** One NO_PROXY entry: `name`, `.name`, `*.name`, `ip`, `ip/bits`, each with an optional `:port` (IPv6 in brackets for a port). */
function noProxyEntry(text: string): NoProxyEntry | undefined {
  let host = text.toLowerCase();
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracketed) [, host = '', port] = bracketed;
  else if (isIP(host) !== 6 && !host.includes('/')) {
    const withPort = /^(.*):(\d+)$/.exec(host);
    if (withPort) [, host = '', port] = withPort;
  } else if (host.includes('/')) {
    const withPort = /^([^/]*\/\d+):(\d+)$/.exec(host);
    if (withPort) [, host = '', port] = withPort;
  }
  host = host.replace(/^\*?\./, '').replace(/\.$/, '');
  if (!host) return undefined;
  const cidr = /^(.+)\/(\d{1,3})$/.exec(host);
  if (cidr && isIP(cidr[1]!)) {
    const range = new BlockList();
    try {
      range.addSubnet(cidr[1]!, Number(cidr[2]), familyOf(cidr[1]!));
    } catch {
      return undefined;
    }
    return { host, port, range };
  }
  // An address by its value, as Go compares them: 2001:db8:0:0:0:0:0:1, 2001:0db8::0001 and
  // the URL's [2001:db8::1] are one address, and so are 10.1.2.3 and ::ffff:10.1.2.3.
  if (isIP(host)) {
    const range = new BlockList();
    range.addAddress(host, familyOf(host));
    return { host, port, range };
  }
  return { host, port };
}

function bypasses(entries: NoProxyEntry[], host: string, port: string): boolean {
  const family = isIP(host);
  return entries.some((e) => {
    if (e.port !== undefined && e.port !== port) return false;
    if (e.range) return family !== 0 && e.range.check(host, familyOf(host));
    return host === e.host || (family === 0 && host.endsWith(`.${e.host}`));
  });
}

/**
 * The routes the environment sets, or undefined when no proxy variable is (then nothing of
 * this is used). A proxy URL that cannot be read is a usage error naming the variable, for
 * the requests that would use it.
 */
export function proxyRoutes(env: NodeJS.ProcessEnv): ProxyRoutes | undefined {
  if (!proxyConfigured(env)) return undefined;
  // A proxy cr cannot use (ALL_PROXY=socks5://…, set for other tools) fails only the requests
  // that would go through it, when they are made (src/http/client.ts asks before sending).
  const proxies: Record<string, ProxyRoute | UsageError | undefined> = {};
  for (const scheme of ['https:', 'http:'] as const) {
    const set = firstSet(env, SCHEME_VARS[scheme]) ?? firstSet(env, FALLBACK_VARS);
    try {
      proxies[scheme] = set ? { url: parseProxyUrl(set.name, set.value), variable: set.name, tunnel: scheme === 'https:' } : undefined;
    } catch (err) {
      proxies[scheme] = err as UsageError;
    }
  }
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY'])?.value ?? '';
  const all = noProxy.split(/[\s,]+/).some((t) => t === '*');
  const entries = noProxy
    .split(/[\s,]+/)
    .filter((t) => t && t !== '*')
    .map(noProxyEntry)
    .filter((e): e is NoProxyEntry => e !== undefined);
  return {
    proxyFor(url) {
      const proxy = proxies[url.protocol];
      if (!proxy || all) return undefined;
      const host = bareHost(url.hostname);
      if (isLoopback(host)) return undefined;
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      if (bypasses(entries, host, port)) return undefined;
      if (proxy instanceof UsageError) throw proxy;
      return proxy;
    },
  };
}
