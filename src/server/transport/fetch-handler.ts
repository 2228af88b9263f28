import { endpointList } from '../../api/endpoints.js';
import { createOperations } from '../app/operations.js';
import type { OperationsOptions } from '../app/operations.js';
import { errorSummary } from '../log-text.js';
import { readBodyText } from '../app/body.js';
import { allowedHostSet } from '../app/host-check.js';
import { createPipeline } from '../app/pipeline.js';
import type { Pipeline, RequestLogEntry } from '../app/pipeline.js';
import { extraRoutes } from '../app/extra-routes.js';
import type { Route } from '../app/router.js';

export { API_PREFIX } from '../../api/vocabulary.js';
import { API_PREFIX } from '../../api/vocabulary.js';
export { DEFAULT_ALLOWED_HOSTS } from '../app/host-check.js';

export type { ApiRequest, ApiResponse, Operations } from '../app/operation-types.js';
import type { Operations } from '../app/operation-types.js';
export { createOperations, decodeQuery } from '../app/operations.js';
export type { OperationsOptions } from '../app/operations.js';

/** Route-template form of a table path: `{id}` → `:id`, under /api/v1. */
export const honoPath = (path: string) => API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1');

/** Known REST paths (`:id` form) and their methods, for the 404/405 split and other layers. */
export const knownRoutes: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const m = new Map<string, Set<string>>();
  for (const ep of endpointList) {
    const p = honoPath(ep.path);
    if (!m.has(p)) m.set(p, new Set());
    m.get(p)!.add(ep.method);
  }
  return m;
})();

export type { RequestLogEntry } from '../app/pipeline.js';
export { CLIENT_CLOSED_REQUEST } from '../app/pipeline.js';

export interface AppOptions extends OperationsOptions {
  /** Hosts accepted in Host/Origin besides loopback (docs/api-decisions.md §8); `false` turns the check off. */
  allowedHosts?: readonly string[] | false;
  /** Called once per request (the key's id only, never the key). */
  log?: (entry: RequestLogEntry) => void;
  /** Operations to share (over a store opened elsewhere); else they are made from the options. */
  operations?: Operations;
  /** The route table's entries besides the endpoint table; default extra-routes.ts (OpenAPI, MCP, /_local/…). */
  routes?: (operations: Operations) => Route[];
}

/** What a socket would tell: the peer's address (the local administration answers loopback only). */
export interface FetchEnv {
  peer?: string;
}

/** The server as a web Fetch handler. */
export interface FetchApp {
  fetch: (request: Request, env?: FetchEnv) => Promise<Response>;
  /** `fetch` of a Request made of a URL and its init (a path alone is taken under http://localhost). */
  request: (input: string, init?: RequestInit, env?: FetchEnv) => Promise<Response>;
}

/**
 * The local server as a web Fetch handler (Request in, Response out): a carrier of the one
 * request pipeline and router (pipeline.ts, router.ts), as `cr serve`'s listener
 * (node-listener.ts) and --local's (in-process.ts) are. It only translates; every rule is the
 * pipeline's (test/server/decisions.test.ts runs its tables over it too).
 */
export function createApp(opts: AppOptions): FetchApp {
  const operations = opts.operations ?? createOperations(opts);
  const onInternalError = opts.onInternalError ?? ((e: unknown) => console.error(`cr serve: internal error: ${errorSummary(e)}`));
  const pipeline: Pipeline = createPipeline({
    operations,
    allowed: opts.allowedHosts === false ? false : allowedHostSet(opts.allowedHosts || []),
    log: opts.log,
    onInternalError,
    routes: (opts.routes ?? extraRoutes)(operations),
  });
  const fetch: FetchApp['fetch'] = async (request, env = {}) => {
    const url = new URL(request.url);
    // Lower-case names; a field sent twice is its values joined by ", " (as Headers gives them).
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await pipeline({
      method: request.method,
      url: request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2)),
      headers,
      host: headers.host ?? url.host,
      origin: headers.origin,
      peer: env.peer,
      readBody: (max) => readBodyText(request, max),
      // The host aborts the request's signal when its client goes away (the Fetch standard).
      clientGone: () => request.signal.aborted,
    });
    // A dropped connection (a client gone mid-upload): a web handler has no socket to destroy,
    // so it answers the Fetch standard's network error, which its host turns into a reset.
    if (answer.clientGone) return Response.error();
    const empty = request.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  };
  return { fetch, request: (input, init, env) => fetch(new Request(input.startsWith('/') ? `http://localhost${input}` : input, init), env) };
}
