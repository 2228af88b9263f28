import { receivedAt, refusedWith } from './received-at.js';
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { Context as HonoContext } from 'hono';
import { endpointList } from '../api/endpoints.js';
import type { TableEndpoint } from '../api/endpoints.js';
import { createCore } from './core.js';
import type { CoreOptions } from './core.js';
import { errorSummary } from './log-text.js';
import { readBodyText, readIncomingText } from './body.js';
import { answerTableRoute } from './table-route.js';
import type { PlainAnswer } from './table-route.js';
import { allowedHostSet } from './host-check.js';
import { createPipeline } from './pipeline.js';
import type { Pipeline, RequestLogEntry } from './pipeline.js';
import { errorEnvelope } from './errors.js';

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

export type { RequestLogEntry } from './pipeline.js';
export { CLIENT_CLOSED_REQUEST } from './pipeline.js';

export interface AppOptions extends CoreOptions {
  /** Hosts accepted in Host/Origin besides loopback (docs/api-decisions.md §8); `false` turns the check off. */
  allowedHosts?: readonly string[] | false;
  /** Called once per request (the key's id only, never the key). */
  log?: (entry: RequestLogEntry) => void;
  /** A core to share (e.g. with an MCP layer); else one is built from the options. */
  core?: ServerCore;
  /** A pipeline to share with another carrier (cr serve's listener); else one is built from the options. */
  pipeline?: Pipeline;
  /**
   * The app's routes only, without the pipeline around them: for a carrier that runs the
   * pipeline itself and hands the app what is left (--local's in-process carrier).
   */
  routesOnly?: boolean;
  /**
   * Slot for more routes (MCP at /api/v1/mcp, OpenAPI at /api/v1/openapi.json): called after
   * the Host/Origin check and before the REST routes and the 404 fallback.
   */
  extend?: (app: Hono<AppEnv>, core: ServerCore) => void;
}

/** keyId for the log; cause and route of an answer for the log and the metrics (PlainAnswer). */
export type AppEnv = { Variables: { keyId?: string; cause?: string; route?: string } };

/** An error answer in the envelope of docs/api-decisions.md §1. */
export const envelope = (c: HonoContext, status: number, error: string, code: string, headers: Record<string, string> = {}) =>
  c.json(errorEnvelope(error, code), status as 400, headers);

/**
 * The Node request behind a Hono context when served by @hono/node-server. Reading headers
 * and body from it directly skips building a web Request (its AbortController, Headers
 * and body stream), which is most of the per-request cost of a small POST.
 */
const nodeIncoming = (c: HonoContext): IncomingMessage | undefined => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/** The error is the client's upload cut short: its connection is gone, no answer reaches it. */
const uploadAborted = (c: HonoContext, err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ECONNRESET' && nodeIncoming(c)?.destroyed === true;

/** A Hono answer as the pipeline holds answers: plain headers, the body's bytes, the key's id. */
async function plainOf(c: HonoContext<AppEnv>): Promise<PlainAnswer> {
  const headers: Record<string, string> = {};
  c.res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    status: c.res.status,
    headers,
    body: new Uint8Array(await c.res.arrayBuffer()),
    keyId: c.get('keyId'),
    cause: c.get('cause'),
    route: c.get('route'),
  };
}

/** The pipeline as a Hono middleware: Hono carries the request in, the app's routes are its `other`. */
function pipelineMiddleware(pipeline: Pipeline) {
  return async (c: HonoContext<AppEnv>, next: () => Promise<void>) => {
    const incoming = nodeIncoming(c);
    const url = incoming?.url ?? c.req.url.slice(c.req.url.indexOf('/', c.req.url.indexOf('//') + 2));
    const answer = await pipeline(
      {
        method: c.req.method,
        url,
        headers: incoming ? (incoming.headers as Record<string, string | undefined>) : c.req.raw.headers,
        host: (incoming ? incoming.headers.host : c.req.header('host')) ?? new URL(c.req.url).host,
        origin: incoming ? incoming.headers.origin : c.req.header('origin'),
        readBody: () => (incoming ? readIncomingText(incoming) : readBodyText(c.req.raw)),
        clientGone: (err) => uploadAborted(c, err),
        refusedWith: () => incoming && refusedWith.get(incoming.socket),
        arrivedAt: incoming && receivedAt.get(incoming),
      },
      async () => {
        await next();
        return plainOf(c);
      },
    )!;
    // A dropped connection (an injected `drop`, a client gone mid-upload): nothing is answered.
    if (answer.clientGone) incoming?.socket.destroy();
    if (answer.keyId) c.set('keyId', answer.keyId);
    // Replaces whatever a route set (its body was read above): cleared first, or Hono would merge the two.
    c.res = undefined;
    c.res = new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

/** The local server's Hono app: REST routes generated from the endpoint table. */
export function createApp(opts: AppOptions): Hono<AppEnv> {
  const core = opts.core ?? createCore(opts);
  const app = new Hono<AppEnv>();
  const onInternalError = opts.onInternalError ?? ((e: unknown) => console.error(`cr serve: internal error: ${errorSummary(e)}`));

  if (!opts.routesOnly) {
    const pipeline =
      opts.pipeline ??
      createPipeline({ core, allowed: opts.allowedHosts === false ? false : allowedHostSet(opts.allowedHosts || []), log: opts.log, onInternalError });
    app.use('*', pipelineMiddleware(pipeline));
  }

  opts.extend?.(app, core);

  // The table's paths again, for what the pipeline leaves to Hono's router (paths with escapes).
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
      c.set('cause', answer.cause);
      c.set('route', answer.route);
      // Plain headers and a Buffer or string body: the Node adapter writes them as they are.
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
  }

  app.notFound((c) => envelope(c, 404, 'Not found', 'NOT_FOUND'));
  // A throw in a route goes back to the pipeline around the app, which maps it (500, or a
  // client gone mid-upload); an app without one maps it here alike.
  app.onError((err, c) => {
    if (!opts.routesOnly) throw err;
    if (uploadAborted(c, err)) return envelope(c, 400, 'Request aborted', 'BAD_REQUEST');
    onInternalError(err);
    return envelope(c, 500, 'Internal error', 'INTERNAL_ERROR');
  });
  return app;
}
