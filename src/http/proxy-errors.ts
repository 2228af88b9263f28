import { DispatchError } from './dispatch-errors.js';
import type { ProxyRoute } from './proxy-env.js';
import { proxyOrigin } from './proxy-vars.js';

/**
 * A proxy's failures, named apart from the server's (exit 8, code PROXY_ERROR: docs/exit-codes.md):
 * the proxy URL without its credentials, and the variable it came from.
 */
export class ProxyError extends DispatchError {
  constructor(
    message: string,
    /** Whether asking again could help: a proxy that cannot be reached may come back; one that refused will refuse again. */
    readonly retryable: boolean,
  ) {
    super(message, 'PROXY_ERROR', 'ProxyError');
  }
}

/** The proxy's own words (a status line), as printable ASCII only: they come from the network. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 120);

const named = (route: ProxyRoute) => `Proxy ${proxyOrigin(route.url)} (${route.variable})`;

export function proxyUnreachable(route: ProxyRoute, cause: Error & { code?: string }): ProxyError {
  const why =
    cause.code === 'ECONNREFUSED'
      ? 'connection refused'
      : cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN'
        ? 'host not found'
        : printable(cause.code ?? cause.message);
  return Object.assign(new ProxyError(`${named(route)} cannot be reached: ${why}`, true), { cause });
}

export function proxyRefused(route: ProxyRoute, target: string, status: number, statusText: string): ProxyError {
  const hint =
    status !== 407
      ? ''
      : route.url.username || route.url.password
        ? ': it rejected the credentials given in the proxy URL (check the user name and password; characters such as @ or : in them percent-encoded)'
        : ': it asks for credentials (put user:password@ in the proxy URL)';
  return new ProxyError(
    `${named(route)} refused the way to ${printable(target)}: HTTP ${status}${statusText ? ` ${printable(statusText)}` : ''}${hint}`,
    false,
  );
}
