import { ResponseError } from '../errors.js';
import { shownValue } from './shown.js';

/**
 * Which redirects the HTTP core follows, as gh follows them (docs/install.md "Redirects";
 * `cr help environment`):
 * - a read (GET, HEAD) follows 301, 302, 303, 307 and 308;
 * - a write follows only 307 and 308, which keep its method and body; any other redirect
 *   answering a write is an error naming the Location (the write may or may not have been
 *   done: it is not sent again as a GET);
 * - at most MAX_REDIRECTS hops;
 * - never from https to http;
 * - the key (Authorization) and the headers given with `cr api -H` go only to the origin
 *   (scheme, host and port) of the URL first asked for: a hop to another origin gets none,
 *   and once dropped they stay dropped for the rest of the chain, even on a hop back to the
 *   first origin (a server elsewhere could otherwise send them back wherever it likes; Go's
 *   net/http does the same since CVE-2024-45336). Content-Type stays: it describes the body.
 * Locations are shown with a password masked, control characters escaped and cut
 * (src/http/shown.ts).
 */
export const MAX_REDIRECTS = 5;

const READ_REDIRECTS = new Set([301, 302, 303, 307, 308]);
const WRITE_REDIRECTS = new Set([307, 308]);

export interface Hop {
  url: string;
  /** Whether this hop may carry the key and the -H headers: every hop so far stayed on the first URL's origin. */
  withKey: boolean;
  /** The Location as messages show it (src/http/shown.ts). */
  shown?: string;
}

/**
 * The next hop after an answer, or undefined when the answer is the response (not a redirect,
 * or a 3xx without a Location, which is answered as it is). Throws for a redirect cr does not
 * follow, with the status and the Location in the message.
 */
export function nextHop(method: string, from: Hop, first: string, status: number, location: string | undefined, hops: number, base: string): Hop | undefined {
  if (!READ_REDIRECTS.has(status) || location === undefined) return undefined;
  const at = shownValue(from.url);
  let to: URL;
  try {
    to = new URL(location, from.url);
  } catch {
    throw new ResponseError(`Unexpected response from ${method} ${at}: HTTP ${status} redirects to a Location that is no URL (${shownValue(location)})`, {
      status,
    });
  }
  const shown = shownValue(to.href);
  const read = method === 'GET' || method === 'HEAD';
  if (!read && !WRITE_REDIRECTS.has(status))
    throw new ResponseError(
      `${method} ${at} was answered by HTTP ${status}, a redirect to ${shown} that cr does not follow for a ${method} (only 307 and 308 keep a write's method and body); the ${method} may not have been done: ${
        to.protocol === 'https:' || to.protocol === 'http:' ? movedBase(to, first, base) : 'its Location is not an http(s) URL'
      }`,
      { status },
    );
  if (to.protocol !== 'https:' && to.protocol !== 'http:')
    throw new ResponseError(`${method} ${at}: HTTP ${status} redirects to ${shown}, which is not an http(s) URL`, { status });
  if (new URL(from.url).protocol === 'https:' && to.protocol === 'http:')
    throw new ResponseError(`${method} ${at}: HTTP ${status} redirects from https to plain http (${shown}); cr does not follow it`, { status });
  if (hops >= MAX_REDIRECTS) throw new ResponseError(`${method} ${shownValue(first)}: more than ${MAX_REDIRECTS} redirects (the last to ${shown})`, { status });
  // Credentials in a Location are never sent (a request carries the origin and path only): the
  // hop's URL drops them, so that no later message shows them.
  to.username = '';
  to.password = '';
  return { url: to.href, withKey: from.withKey && to.origin === new URL(first).origin, shown };
}

/**
 * The base URL to suggest when the API answers from elsewhere: the Location with the request's
 * own path under the base taken off its end when it ends so (the API moved whole), else the
 * base's own path on the Location's origin; said as advice, in the words messages use
 * (src/http/shown.ts). A base cr would refuse (one not ending in /api/v1: docs/cli-contract.md)
 * is not offered: the advice then names the origin only.
 */
export function movedBase(to: URL, first: string, base: string): string {
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  const firstPath = new URL(first).pathname;
  const endpoint = firstPath.startsWith(`${basePath}/`) ? firstPath.slice(basePath.length) : '';
  const path = endpoint && to.pathname.endsWith(endpoint) ? to.pathname.slice(0, -endpoint.length) : basePath;
  if (!path.endsWith('/api/v1')) return `point the base URL at the /api/v1 of ${shownValue(to.origin)}`;
  return `point the base URL at ${shownValue(`${to.origin}${path}`)}`;
}
