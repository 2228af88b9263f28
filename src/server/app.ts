import { receivedAt } from './received-at.js';
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { Context as HonoContext } from 'hono';
import { endpointList } from '../api/endpoints.js';
import type { TableEndpoint } from '../api/endpoints.js';
import { dateHeader } from './date-header.js';
import { createCore } from './core.js';
import type { CoreOptions } from './core.js';
import { errorSummary } from './log-text.js';
import { readBodyText, readIncomingText } from './body.js';
import { answerTableRoute } from './table-route.js';
import { allowedHostSet, hostAndOriginAllowed } from './host-check.js';

export { API_PREFIX } from '../api/vocabulary.js';
import { API_PREFIX } from '../api/vocabulary.js';
export { DEFAULT_ALLOWED_HOSTS } from './host-check.js';

export type { ApiRequest, ApiResponse, ServerCore } from './core-types.js';
import type { ServerCore } from './core-types.js';
export { createCore, decodeQuery } from './core.js';
export type { CoreOptions } from './core.js';

/** Hono path of a table path: `{id}` → `:id`, under /api/v1. */
export const honoPath = (path: string) => API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1');

/** Known REST paths (Hono syntax) and their methods, for the 404/405 split and other layers. */
export const knownRoutes: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const m = new Map<string, Set<string>>();
  for (const ep of endpointList) {
    const p = honoPath(ep.path);
    if (!m.has(p)) m.set(p, new Set());
    m.get(p)!.add(ep.method);
  }
  return m;
})();

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  keyId?: string;
}

export interface AppOptions extends CoreOptions {
  /** Hosts accepted in Host/Origin besides loopback (docs/api-decisions.md §8); `false` turns the check off. */
  allowedHosts?: readonly string[] | false;
  /** Called once per request (the key's id only, never the key). */
  log?: (entry: RequestLogEntry) => void;
  /** A core to share (e.g. with an MCP layer); else one is built from the options. */
  core?: ServerCore;
  /**
   * Slot for more routes (MCP at /api/v1/mcp, OpenAPI at /api/v1/openapi.json): called after
   * the Host/Origin check and before the REST routes and the 404 fallback.
   */
  extend?: (app: Hono<AppEnv>, core: ServerCore) => void;
}

export type AppEnv = { Variables: { keyId?: string } };

/** An error answer in the envelope of docs/api-decisions.md §1. */
export const envelope = (c: HonoContext, status: number, error: string, code: string, headers: Record<string, string> = {}) =>
  c.json({ success: false, error, code }, status as 400, headers);

/** Host/Origin check (docs/api-decisions.md §8): blocks DNS rebinding on the loopback server. */
export function hostOriginCheck(extra: readonly string[] = []) {
  const allowed = allowedHostSet(extra);
  return async (c: HonoContext, next: () => Promise<void>) => {
    const incoming = nodeIncoming(c);
    const host = (incoming ? incoming.headers.host : c.req.header('host')) ?? new URL(c.req.url).host;
    const origin = incoming ? incoming.headers.origin : c.req.header('origin');
    if (!hostAndOriginAllowed(host, origin, allowed)) return envelope(c, 403, 'Forbidden host or origin', 'FORBIDDEN');
    await next();
  };
}

/**
 * The Node request behind a Hono context when served by @hono/node-server. Reading headers
 * and body from it directly skips building a web Request (its AbortController, Headers
 * and body stream), which is most of the per-request cost of a small POST.
 */
const nodeIncoming = (c: HonoContext): IncomingMessage | undefined => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/**
 * The status the request log gives a request whose client left mid-upload (nginx's 499,
 * "client closed request"): one line per request, and none of them a 500 (docs/api-decisions.md §9).
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** The error is the client's upload cut short: its connection is gone, no answer reaches it. */
const uploadAborted = (c: HonoContext, err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ECONNRESET' && nodeIncoming(c)?.destroyed === true;

/** The local server's Hono app: REST routes generated from the endpoint table. */
export function createApp(opts: AppOptions): Hono<AppEnv> {
  const core = opts.core ?? createCore(opts);
  const app = new Hono<AppEnv>();

  if (opts.log) {
    const log = opts.log;
    app.use('*', async (c, next) => {
      // From when the server took the request: injected latency counts (src/server/received-at.ts).
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      const t0 = (incoming && receivedAt.get(incoming)) ?? performance.now();
      await next();
      const status = c.error && uploadAborted(c, c.error) ? CLIENT_CLOSED_REQUEST : c.res.status;
      log({ method: c.req.method, path: c.req.path, status, ms: Math.round(performance.now() - t0), keyId: c.get('keyId') });
    });
  }
  if (opts.allowedHosts !== false) app.use('*', hostOriginCheck(opts.allowedHosts || []));
  app.use('*', dateHeader(core.clock));

  opts.extend?.(app, core);

  const byPath = new Map<string, TableEndpoint[]>();
  for (const ep of endpointList) {
    const p = honoPath(ep.path);
    byPath.set(p, [...(byPath.get(p) ?? []), ep]);
  }
  for (const [path, eps] of byPath) {
    app.all(path, async (c) => {
      const incoming = nodeIncoming(c);
      const answer = await answerTableRoute(core, eps, {
        method: c.req.method,
        headers: incoming ? (incoming.headers as Record<string, string | undefined>) : c.req.raw.headers,
        // Hono builds these objects on every call; most requests have neither.
        params: () => c.req.param() as Record<string, string>,
        query: () => ((incoming?.url ?? c.req.url).includes('?') ? c.req.query() : {}),
        readBody: () => (incoming ? readIncomingText(incoming) : readBodyText(c.req.raw)),
      });
      if (answer.keyId) c.set('keyId', answer.keyId);
      // Plain headers and a Buffer or string body: the Node adapter writes them as they are.
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
  }

  app.notFound((c) => envelope(c, 404, 'Not found', 'NOT_FOUND'));
  app.onError((err, c) => {
    // A client that went away mid-body: nothing to report (as in node-listener.ts).
    if (uploadAborted(c, err)) return envelope(c, 400, 'Request aborted', 'BAD_REQUEST');
    (opts.onInternalError ?? ((e: unknown) => console.error(`cr serve: internal error: ${errorSummary(e)}`)))(err);
    return envelope(c, 500, 'Internal error', 'INTERNAL_ERROR');
  });
  return app;
}
