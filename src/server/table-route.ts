import { getQueryParam } from 'hono/utils/url';
import { endpointList } from '../api/endpoints.js';
import type { TableEndpoint } from '../api/endpoints.js';
import { API_PREFIX } from '../api/vocabulary.js';
import { BodyTooLarge } from './body.js';
import { errorEnvelope } from './errors.js';
import type { ApiRequest, ServerCore } from './core-types.js';

/** One answer as any carrier sends it (the HTTP listener, or --local in-process). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Id (never the secret) of the authenticated key, for the request log. */
  keyId?: string;
  /** Why a 5xx happened, in one word (core-types.ts ApiResponse): for the log and the metrics. */
  cause?: string;
  /** The route's name for the metrics: an operation id or a route template, never a path with ids in it. */
  route?: string;
}

/** A request to a path of the endpoint table, in the parts the pipeline reads. */
export interface TableRequest {
  method: string;
  headers: NonNullable<ApiRequest['headers']>;
  /** Path parameters, decoded; asked only of endpoints that have some. */
  params: () => Record<string, string>;
  /** The query string's values; asked on every request. */
  query: () => Record<string, unknown>;
  /** The body text, refusing more than 1 MiB with BodyTooLarge (src/server/body.ts). */
  readBody: () => Promise<string>;
}

const JSON_TYPE = 'application/json';

/** An error answer in the envelope of docs/api-decisions.md §1. */
export function errorAnswer(status: number, error: string, code: string, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: { ...headers, 'content-type': JSON_TYPE }, body: JSON.stringify(errorEnvelope(error, code)) };
}

/**
 * Answers a request to one path of the endpoint table: 405 for a method the path does not
 * have, 413 for a body over the limit, else the whole pipeline of `core.invoke` (key, rate
 * limit, role, validation, scope). The HTTP listener (app.ts) and --local's in-process
 * carrier (in-process.ts) both answer through this, so they cannot drift apart.
 */
export async function answerTableRoute(core: ServerCore, eps: readonly TableEndpoint[], req: TableRequest): Promise<PlainAnswer> {
  const ep = eps.find((e) => e.method === req.method);
  if (!ep) {
    const refused = errorAnswer(405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { Allow: eps.map((e) => e.method).join(', ') });
    refused.route = API_PREFIX + eps[0]!.path;
    return refused;
  }
  let rawBody: string | undefined;
  if (ep.method !== 'GET') {
    try {
      rawBody = await req.readBody();
    } catch (err) {
      if (err instanceof BodyTooLarge) return { ...errorAnswer(413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' }), route: ep.operationId };
      throw err;
    }
  }
  const res = await core.invoke(ep.operationId, { headers: req.headers, params: ep.params ? req.params() : {}, query: req.query(), rawBody });
  // Cached envelope bytes (a summary computed once per store version) go out as they are.
  const cached = res.serialized;
  if (cached) {
    res.headers['content-type'] = JSON_TYPE;
    res.headers['content-length'] = String(cached.envelope.length);
    return { status: res.status, headers: res.headers, body: cached.envelope, keyId: res.keyId, route: ep.operationId };
  }
  // invoke makes a fresh header object per request: completed in place, not copied.
  res.headers['content-type'] = JSON_TYPE;
  return { status: res.status, headers: res.headers, body: JSON.stringify(res.body), keyId: res.keyId, cause: res.cause, route: ep.operationId };
}

interface TablePath {
  /** The path's segments; a `{name}` segment takes any one non-empty segment. */
  segments: string[];
  eps: TableEndpoint[];
}

function tablePaths(): TablePath[] {
  const byPath = new Map<string, TableEndpoint[]>();
  for (const ep of endpointList) byPath.set(ep.path, [...(byPath.get(ep.path) ?? []), ep]);
  return [...byPath].map(([path, eps]) => ({ segments: (API_PREFIX + path).split('/'), eps }));
}

// Paths taken without the router: plain characters only. Anything else (percent-escapes,
// empty or dot segments) is for the Hono app to judge, exactly as it would over HTTP.
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

function matchTable(paths: readonly TablePath[], path: string): { eps: TableEndpoint[]; params: Record<string, string> } | undefined {
  if (!PLAIN_PATH.test(path)) return undefined;
  const parts = path.split('/');
  for (const candidate of paths) {
    if (candidate.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = candidate.segments.every((seg, i) => {
      if (seg.startsWith('{')) {
        // PLAIN_PATH holds no percent-escapes: the segment is its own decoded value.
        params[seg.slice(1, -1)] = parts[i]!;
        return true;
      }
      return seg === parts[i];
    });
    if (fits) return { eps: candidate.eps, params };
  }
  return undefined;
}

/** A request as a carrier has it: method, path with query, headers, and a way to read the body. */
export interface CarriedRequest {
  method: string;
  /** The path with its query string. */
  url: string;
  headers: NonNullable<ApiRequest['headers']>;
  readBody: () => Promise<string>;
}

/** The longest path whose table match is remembered (tableRoutes). */
const MEMO_PATH_MAX = 256;

/**
 * The endpoint table's paths without a router: answers a request to one of them (see
 * answerTableRoute), or returns undefined for any other path, which the caller hands to the
 * Hono app (OpenAPI, MCP, 404, and paths with escapes, judged by Hono's own router).
 */
export function tableRoutes(core: ServerCore): (req: CarriedRequest) => (() => Promise<PlainAnswer>) | undefined {
  const paths = tablePaths();
  // The same few paths come again and again: their matches are kept (a bounded number of
  // short paths, so a stream of distinct paths cannot grow the process).
  const seen = new Map<string, ReturnType<typeof matchTable>>();
  const match = (pathname: string) => {
    if (seen.has(pathname)) return seen.get(pathname);
    // Long paths (up to a URL's 16 KiB) are matched each time: the memo stays a few hundred KB at most.
    if (pathname.length > MEMO_PATH_MAX) return matchTable(paths, pathname);
    if (seen.size >= 1024) seen.clear();
    const hit = matchTable(paths, pathname);
    seen.set(pathname, hit);
    return hit;
  };
  return (req) => {
    const q = req.url.indexOf('?');
    const hit = match(q === -1 ? req.url : req.url.slice(0, q));
    if (!hit) return undefined;
    return () =>
      answerTableRoute(core, hit.eps, {
        method: req.method,
        headers: req.headers,
        params: () => hit.params,
        // Hono's own query reader (what c.req.query() runs), so both carriers read a query alike.
        query: () => (q === -1 ? {} : (getQueryParam(`http://localhost${req.url}`) as Record<string, string>)),
        readBody: req.readBody,
      });
  };
}
