import { ResponseError } from '../errors.js';
import { redactKeys } from '../config/redact.js';

/**
 * Which redirects the HTTP core follows, as gh follows them (docs/install.md "Redirects";
 * `cr help environment`):
 * - a read (GET, HEAD) follows 301, 302, 303, 307 and 308;
 * - a write follows only 307 and 308, which keep its method and body; any other redirect
 *   answering a write is an error naming the Location (the write may or may not have been
 *   done: it is not sent again as a GET);
 * - at most MAX_REDIRECTS hops;
 * - never from https to http;
 * - the key (Authorization) goes only to the origin (scheme, host and port) of the URL first
 *   asked for: a hop to another origin gets none.
 */
export const MAX_REDIRECTS = 5;

const READ_REDIRECTS = new Set([301, 302, 303, 307, 308]);
const WRITE_REDIRECTS = new Set([307, 308]);

export interface Hop {
  url: string;
  /** Whether this hop may carry the key: it is on the first URL's origin. */
  withKey: boolean;
}

/**
 * The next hop after an answer, or undefined when the answer is the response (not a redirect,
 * or a 3xx without a Location, which is answered as it is). Throws for a redirect cr does not
 * follow, with the status and the Location in the message.
 */
export function nextHop(method: string, from: string, first: string, status: number, location: string | undefined, hops: number): Hop | undefined {
  if (!READ_REDIRECTS.has(status) || location === undefined) return undefined;
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    throw new ResponseError(`Unexpected response from ${method} ${redactKeys(from)}: HTTP ${status} redirects to a Location that is no URL`, { status });
  }
  // URL serialisation percent-encodes control characters: the Location is shown as parsed.
  const shown = redactKeys(to.href);
  const read = method === 'GET' || method === 'HEAD';
  if (!read && !WRITE_REDIRECTS.has(status))
    throw new ResponseError(
      `${method} ${redactKeys(from)} was answered by HTTP ${status}, a redirect to ${shown} that cr does not follow for a ${method} (only 307 and 308 keep a write's method and body); the ${method} may not have been done: point the base URL at ${to.origin}`,
      { status },
    );
  if (to.protocol !== 'https:' && to.protocol !== 'http:')
    throw new ResponseError(`${method} ${redactKeys(from)}: HTTP ${status} redirects to ${shown}, which is not an http(s) URL`, { status });
  if (new URL(from).protocol === 'https:' && to.protocol === 'http:')
    throw new ResponseError(`${method} ${redactKeys(from)}: HTTP ${status} redirects from https to plain http (${shown}); cr does not follow it`, { status });
  if (hops >= MAX_REDIRECTS) throw new ResponseError(`${method} ${redactKeys(first)}: more than ${MAX_REDIRECTS} redirects (the last to ${shown})`, { status });
  return { url: to.href, withKey: to.origin === new URL(first).origin };
}
