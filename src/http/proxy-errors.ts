import { DispatchError } from './dispatch-errors.js';
import { certificateAdvice, certificateProblem } from './network-errors.js';
import type { ProxyRoute } from './proxy-env.js';
import { proxyOrigin } from './proxy-vars.js';
import { shownValue } from './shown.js';

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

// Cut like any value from the environment (src/http/shown.ts): a 100 KB host is not echoed whole.
const named = (route: ProxyRoute) => `Proxy ${shownValue(proxyOrigin(route.url))} (${route.variable})`;

/**
 * The failures of a connection that was never made: anything else means the proxy was reached.
 * EADDRNOTAVAIL and EINVAL come from the connect call itself (an IPv6 proxy address on a machine
 * without IPv6, say), before anything is sent.
 */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EINVAL']);

export function proxyUnreachable(route: ProxyRoute, cause: Error & { code?: string }): ProxyError {
  const why =
    cause.code === 'ECONNREFUSED'
      ? 'connection refused'
      : cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN'
        ? 'host not found'
        : printable(cause.code ?? cause.message);
  // Reached, then closed (or answered something that is no answer) before the way to the server
  // was open: the request for a tunnel (an https URL) or the request itself, which an http
  // URL's proxy forwards.
  if (!NOT_REACHED.has(cause.code ?? '') && !cause.code?.startsWith('UND_ERR_CONNECT'))
    return Object.assign(
      new ProxyError(`${named(route)} closed the connection without answering the request${route.tunnel ? ' for a tunnel' : ''} (${why})`, true),
      { cause },
    );
  return Object.assign(new ProxyError(`${named(route)} cannot be reached: ${why}`, true), { cause });
}

/**
 * An https:// proxy whose certificate cr does not trust (or that fails otherwise): the
 * certificate wording of src/http/network-errors.ts, naming the proxy and its variable. Not
 * retried: the same certificate comes back. Undefined when the failure is no certificate's.
 */
export function proxyCertificate(route: ProxyRoute, cause: Error & { code?: string }): ProxyError | undefined {
  const problem = cause.code ? certificateProblem(cause.code, 'proxy') : undefined;
  if (!problem) return undefined;
  return Object.assign(new ProxyError(`${named(route)}: ${problem} (${cause.code}). ${certificateAdvice(cause.code!, 'proxy')}`, false), { cause });
}

/** The tunnel was opened (CONNECT answered 200), then closed before the server answered: by the proxy or the server behind it. */
export function tunnelClosed(route: ProxyRoute, target: string, cause: Error & { code?: string }): ProxyError {
  return Object.assign(
    new ProxyError(
      `${named(route)} opened the tunnel to ${printable(target)}, then the connection closed before the server answered (closed by the proxy or the server behind it: ${printable(cause.code ?? cause.message)})`,
      true,
    ),
    { cause },
  );
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

/**
 * Out of time before the proxy opened the tunnel an https request asked for: it could not be
 * reached (a connection it never accepts) or it did not answer the CONNECT, which cr cannot
 * tell apart from here. Retried as a time-out is (docs/exit-codes.md).
 */
export function proxyTimedOut(route: ProxyRoute, origin: URL, ms: number, cause: Error): ProxyError {
  return Object.assign(
    new ProxyError(
      `${named(route)} did not open the tunnel to ${printable(origin.host)} within ${Number((ms / 1000).toFixed(1))} s (it cannot be reached, or did not answer)`,
      true,
    ),
    { cause },
  );
}
