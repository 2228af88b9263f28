import { routes } from '../../api/routes.js';
import type { OperationId, Route as TableRoute } from '../../api/routes.js';
import { API_PREFIX } from '../../api/vocabulary.js';
import type { Operations } from './operation-types.js';
import { answerTableRoute, errorAnswer } from './table-route.js';
import type { CarriedRequest, PlainAnswer } from './table-route.js';
import { loadUrlReading, urlReading } from './url-reading.js';

/** A request as the router's handlers read it: the carrier's parts, with what they were judged on. */
export interface RouteRequest extends CarriedRequest {
  /** The Host the Host/Origin check admitted (docs/api-decisions.md §8). */
  host: string;
  /** The peer's address when a socket carried the request; none in-process (the admin routes need one). */
  peer?: string;
}

/** What a route's handler is given besides the request: its path parameters (decoded) and query values. */
export interface RouteMatch {
  params: () => Record<string, string>;
  query: () => Record<string, unknown>;
}

/** One entry of the route table besides the endpoint table's own (OpenAPI, MCP, /_local/…). */
export interface Route {
  /** The whole path, `{name}` for a segment taken as a parameter. */
  path: string;
  /** The methods it answers (a GET route answers HEAD too); none listed: every method. Another method is a 404. */
  methods?: readonly string[];
  answer: (req: RouteRequest, match: RouteMatch) => Promise<PlainAnswer>;
}

/** The router: every request gets an answer (a 404 for a path no entry has). */
export type Router = (req: RouteRequest) => Promise<PlainAnswer>;

interface Entry {
  segments: string[];
  answer: (req: RouteRequest, match: RouteMatch) => Promise<PlainAnswer>;
}

// Paths matched as they come: plain characters only. Anything else (percent-escapes, empty or
// dot segments, a backslash) is first made what a URL parser makes of it (below).
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/**
 * The path a web URL parser and Hono's router judged, before this router took over from them:
 * dot segments resolved, then percent-escapes decoded except those of reserved characters
 * (hono's getPath); parameters are decoded again, one by one (tryDecodeURIComponent).
 * Keeping their reading keeps every answer to an odd path the same (test/server/carriers.test.ts).
 * Asked only once the reading is loaded (url-reading.ts; the router loads it first).
 */
function judgedPath(url: string): string {
  let href: string;
  try {
    href = new URL(url, 'http://localhost').href;
  } catch {
    return url;
  }
  return urlReading()!.getPath({ url: href } as Request);
}

const notFound = (): PlainAnswer => errorAnswer(404, 'Not found', 'NOT_FOUND');

/** The longest path whose match is remembered. */
const MEMO_PATH_MAX = 256;

type Hit = { entry: Entry; params: Record<string, string>; decode: boolean } | undefined;

/**
 * The server's one route table: the endpoint table's paths (answered by table-route.ts: 405,
 * 413, then operations.invoke), then `extra` (OpenAPI, MCP, the local administration), then 404.
 * Every carrier reaches it through the request pipeline (pipeline.ts), so a path is judged
 * the same over a socket, in-process and through the Fetch carrier.
 */
export function createRouter(operations: Operations, extra: readonly Route[] = []): Router {
  const entries: Entry[] = [];
  // The table's HTTP facts without zod (src/api/generated/routes.ts): an operation's schemas load when it is first answered (operations.ts).
  const byPath = new Map<string, TableRoute<OperationId>[]>();
  for (const ep of Object.values(routes)) byPath.set(ep.path, [...(byPath.get(ep.path) ?? []), ep]);
  for (const [path, eps] of byPath) {
    entries.push({
      segments: (API_PREFIX + path).split('/'),
      answer: (req, m) =>
        answerTableRoute(operations, eps, { method: req.method, headers: req.headers, params: m.params, query: m.query, readBody: req.readBody }),
    });
  }
  // One entry per path; the methods its routes answer pick the route (a GET route answers HEAD too).
  const extraByPath = new Map<string, { methods: ReadonlySet<string> | undefined; route: Route }[]>();
  for (const route of extra) {
    const methods = route.methods && new Set(route.methods.includes('GET') ? [...route.methods, 'HEAD'] : route.methods);
    extraByPath.set(route.path, [...(extraByPath.get(route.path) ?? []), { methods, route }]);
  }
  for (const [path, routes] of extraByPath) {
    entries.push({
      segments: path.split('/'),
      answer: (req, m) => {
        const chosen = routes.find((r) => !r.methods || r.methods.has(req.method));
        return chosen ? chosen.route.answer(req, m) : Promise.resolve(notFound());
      },
    });
  }

  const matchPath = (path: string, decode: boolean): Hit => {
    const parts = path.split('/');
    for (const entry of entries) {
      if (entry.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const fits = entry.segments.every((seg, i) => {
        const part = parts[i]!;
        if (seg.startsWith('{')) {
          params[seg.slice(1, -1)] = part;
          return part !== '';
        }
        return seg === part;
      });
      if (fits) return { entry, params, decode };
    }
    return undefined;
  };
  const match = (pathname: string): Hit => (PLAIN_PATH.test(pathname) ? matchPath(pathname, false) : matchPath(judgedPath(pathname), true));

  // The same few paths come again and again: their matches are kept (a bounded number of
  // short paths, so a stream of distinct paths cannot grow the process).
  const seen = new Map<string, Hit>();
  const remembered = (pathname: string): Hit => {
    if (seen.has(pathname)) return seen.get(pathname);
    if (pathname.length > MEMO_PATH_MAX) return match(pathname);
    if (seen.size >= 1024) seen.clear();
    const hit = match(pathname);
    seen.set(pathname, hit);
    return hit;
  };

  const answer = (req: RouteRequest, pathname: string, q: number): Promise<PlainAnswer> => {
    const hit = remembered(pathname);
    if (!hit) return Promise.resolve(notFound());
    const reading = urlReading();
    const params = hit.decode ? () => Object.fromEntries(Object.entries(hit.params).map(([k, v]) => [k, reading!.tryDecodeURIComponent(v)])) : () => hit.params;
    // Hono's own query reader, so a query reads the same as it did through Hono's router.
    const query = () => (q === -1 ? {} : (reading!.getQueryParam(`http://localhost${req.url}`) as Record<string, string>));
    return hit.entry.answer(req, { params, query });
  };

  return (req) => {
    const q = req.url.indexOf('?');
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    // No path a client can mean: a request target that is not a path, or one with a backslash
    // (which URL parsers read as a slash and servers as a character).
    if (pathname[0] !== '/' || pathname.includes('\\')) return Promise.resolve(errorAnswer(400, 'Bad request', 'BAD_REQUEST'));
    // A plain path without a query is read without Hono's reading; anything else loads it first.
    if (!urlReading() && (q !== -1 || !PLAIN_PATH.test(pathname))) return loadUrlReading().then(() => answer(req, pathname, q));
    return answer(req, pathname, q);
  };
}

/** A request header (lower-case name) from either form a carrier hands over, without touching the `Headers` global. */
export function headerOf(headers: RouteRequest['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  return (headers as Record<string, string | undefined>)[name];
}

/** A JSON answer of a route: `body` serialised, the content type set. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
