import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { Context as HonoContext } from 'hono';
import type { z } from 'zod';
import { endpointList, endpoints } from '../api/endpoints.js';
import type { Endpoint, OperationId, TableEndpoint } from '../api/endpoints.js';
import { systemClock } from './clock.js';
import { dateHeader } from './date-header.js';
import type { Clock } from './clock.js';
import { StoreFullError, StoreUnavailableError } from './store/store.js';
import type { Store } from './store/store.js';
import { authenticate, requireRole, resolveScope } from './auth.js';
import type { AuthContext } from './auth.js';
import { HttpError, validationError } from './errors.js';
import { RETRY_AFTER_SECONDS, RateLimiter } from './rate-limit.js';
import { defaultNewId, handlerOf } from './handlers.js';
import { Serialized } from './compute/serialized.js';
import type { ValidInput } from './handlers.js';
import { joinPath, safeJsonParse, shapeViolation } from './json.js';
import { errorSummary } from './log-text.js';
import { BodyTooLarge, readBodyText, readIncomingText, unsupportedMediaType } from './body.js';
import { ScopeFilterQuery as WebsiteIdQuery } from '../api/schemas/brand.js';

export const API_PREFIX = '/api/v1';
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A request to one operation, as REST or a future MCP layer sees it. */
export interface ApiRequest {
  /** Header names are matched case-insensitively. */
  headers?: Headers | Record<string, string | undefined>;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** An already parsed body (MCP arguments). */
  body?: unknown;
  /** The raw body text (REST); parsed here so that invalid JSON is a validation-step 400. */
  rawBody?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The envelope: `{success: true, data}` or the error body of docs/api-decisions.md §1. */
  body: Record<string, unknown>;
  /** Id (never the secret) of the authenticated key, for the request log. */
  keyId?: string;
  /** `body` already serialised, when the handler's result came with its JSON bytes. */
  serialized?: Serialized;
}

export interface CoreOptions {
  store: Store;
  clock?: Clock;
  limits?: { rateLimit?: number };
  /** A ready limiter (e.g. with a sidecar file); else one is made from `limits`. */
  rateLimiter?: RateLimiter;
  newId?: () => string;
  /** Unexpected errors (500) are reported here, never to the client. */
  onInternalError?: (err: unknown) => void;
}

export interface ServerCore {
  store: Store;
  clock: Clock;
  rateLimiter: RateLimiter;
  /**
   * Runs one operation through the whole pipeline: key, rate limit, role, validation,
   * scope, lookup, state. REST routes and MCP tools both call this.
   */
  invoke(operationId: OperationId, req: ApiRequest): Promise<ApiResponse>;
}

const headerOf = (h: ApiRequest['headers'], name: string): string | undefined => {
  if (!h) return undefined;
  if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined;
  const rec = h as Record<string, string | undefined>;
  // Node's header names are lower case already; other callers (MCP, tests) may not be.
  if (rec[name] !== undefined) return rec[name];
  const hit = Object.keys(rec).find((k) => k.toLowerCase() === name);
  return hit === undefined ? undefined : rec[hit];
};

/** The part of a zod schema's definition read here: its kind, and the wrapped schema of a wrapper. */
interface SchemaDef {
  def?: { type?: string; innerType?: SchemaDef };
}

/** Unwraps optional/default/nullable wrappers to the core zod type name. */
function coreType(schema: z.ZodType): string {
  let s: SchemaDef | undefined = schema as SchemaDef;
  while (s?.def?.type && ['optional', 'default', 'nullable', 'prefault', 'readonly'].includes(s.def.type)) s = s.def.innerType;
  return s?.def?.type ?? 'unknown';
}

/**
 * Query strings arrive as text: digit strings become numbers for number-typed fields (the
 * endpoint table keeps real types, e.g. `limit` is a number); anything else is left for zod.
 */
export function decodeQuery(schema: z.ZodType | undefined, query: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === '__proto__') continue;
    const field = shape?.[k];
    if (field && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) && coreType(field) === 'number') out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}

const issuesOf = (err: z.ZodError) => err.issues.map((i) => ({ path: joinPath(i.path, i.path.length ? '' : 'body'), message: i.message }));

function validate(ep: Endpoint, req: ApiRequest): { input: ValidInput; issues: { path: string; message: string }[] } {
  const issues: { path: string; message: string }[] = [];
  const input: ValidInput = { params: {}, query: {}, body: undefined };
  if (ep.params) {
    const r = ep.params.safeParse(req.params ?? {});
    if (r.success) input.params = r.data;
    else issues.push(...issuesOf(r.error));
  }
  if (ep.query) {
    const r = ep.query.safeParse(decodeQuery(ep.query, req.query ?? {}));
    if (r.success) input.query = r.data;
    else issues.push(...issuesOf(r.error).map((d) => (d.path === 'body' ? { ...d, path: 'query' } : d)));
  }
  if (!ep.query && ep.websiteScope !== 'owner' && req.query?.website_id !== undefined) {
    // website_id is accepted as a query parameter on every website-scoped endpoint.
    const r = WebsiteIdQuery.safeParse({ website_id: req.query.website_id });
    if (r.success) input.query = r.data;
    else issues.push(...issuesOf(r.error));
  }
  if (ep.body) {
    let value: unknown = req.body;
    if (req.rawBody !== undefined) {
      if (req.rawBody.trim() === '') value = {};
      else {
        try {
          value = safeJsonParse(req.rawBody);
        } catch {
          throw new HttpError(400, 'Invalid JSON body', 'BAD_REQUEST');
        }
      }
    }
    value ??= {};
    const bad = shapeViolation(value);
    if (bad) throw validationError([bad]);
    const r = ep.body.safeParse(value);
    if (r.success) input.body = r.data;
    else issues.push(...issuesOf(r.error));
  }
  return { input, issues };
}

/** website_id from the query or the body (both accepted; they must agree). */
function requestedWebsite(input: ValidInput): string | undefined {
  const q = input.query?.website_id as string | undefined;
  const b = input.body?.website_id as string | undefined;
  if (q !== undefined && b !== undefined && q !== b) {
    throw validationError([{ path: 'website_id', message: 'website_id in the query and in the body differ' }]);
  }
  return q ?? b;
}

export function createCore(opts: CoreOptions): ServerCore {
  const store = opts.store;
  const clock = opts.clock ?? systemClock;
  const rateLimiter = opts.rateLimiter ?? new RateLimiter({ limit: opts.limits?.rateLimit });
  const newId = opts.newId ?? defaultNewId;
  const onInternalError = opts.onInternalError ?? ((err: unknown) => console.error(`cr serve: internal error: ${errorSummary(err)}`));

  async function invoke(operationId: OperationId, req: ApiRequest): Promise<ApiResponse> {
    const ep = endpoints[operationId] as Endpoint | undefined;
    const handler = handlerOf(operationId);
    const headers: Record<string, string> = {};
    let auth: AuthContext | undefined;
    try {
      if (!ep || !handler) throw new HttpError(404, 'Not found', 'NOT_FOUND');
      auth = authenticate(store, headerOf(req.headers, 'authorization'));
      const rl = rateLimiter.hit(auth.keyId);
      headers['X-RateLimit-Limit'] = String(rl.limit);
      headers['X-RateLimit-Remaining'] = String(rl.remaining);
      headers['X-RateLimit-Reset'] = String(rl.reset);
      if (!rl.allowed) throw new HttpError(429, 'Rate limit exceeded', 'RATE_LIMITED', undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
      requireRole(auth, ep.minRole);
      const media = unsupportedMediaType(req.rawBody, headerOf(req.headers, 'content-type'));
      if (media) throw media;
      const { input, issues } = validate(ep, req);
      if (issues.length === 0 && handler.check) issues.push(...handler.check(input, clock));
      if (issues.length > 0) throw validationError(issues);
      const scope = resolveScope(store, auth, ep.websiteScope, requestedWebsite(input));
      const data = await handler.run({ store, clock, auth, scope, newId }, input);
      if (data instanceof Serialized) {
        return { status: 200, headers, body: { success: true, data: data.value }, serialized: data, keyId: auth.keyId };
      }
      return { status: 200, headers, body: { success: true, data }, keyId: auth.keyId };
    } catch (err) {
      if (err instanceof HttpError) {
        return { status: err.status, headers: { ...headers, ...err.headers }, body: err.body, keyId: auth?.keyId };
      }
      if (err instanceof StoreFullError) {
        return { status: 507, headers, body: { success: false, error: 'Store is full', code: 'STORE_FULL' }, keyId: auth?.keyId };
      }
      if (err instanceof StoreUnavailableError) {
        return { status: 503, headers, body: { success: false, error: 'Store unavailable', code: 'STORE_UNAVAILABLE' }, keyId: auth?.keyId };
      }
      onInternalError(err);
      return { status: 500, headers, body: { success: false, error: 'Internal error', code: 'INTERNAL_ERROR' }, keyId: auth?.keyId };
    }
  }

  return { store, clock, rateLimiter, invoke };
}

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

function hostAllowed(value: string, allowed: ReadonlySet<string>): boolean {
  const v = value.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]+)(?::\d+)?$/.exec(v);
  return !!m && allowed.has(m[1]!);
}

/** Host/Origin check (docs/api-decisions.md §8): blocks DNS rebinding on the loopback server. */
export function hostOriginCheck(extra: readonly string[] = []) {
  const allowed = new Set([...DEFAULT_ALLOWED_HOSTS, ...extra.map((h) => h.toLowerCase())]);
  return async (c: HonoContext, next: () => Promise<void>) => {
    const incoming = nodeIncoming(c);
    const host = (incoming ? incoming.headers.host : c.req.header('host')) ?? new URL(c.req.url).host;
    const origin = incoming ? incoming.headers.origin : c.req.header('origin');
    let ok = hostAllowed(host, allowed);
    if (ok && origin !== undefined) {
      try {
        const u = new URL(origin);
        ok = ['http:', 'https:'].includes(u.protocol) && allowed.has(u.hostname.toLowerCase());
      } catch {
        ok = false;
      }
    }
    if (!ok) return envelope(c, 403, 'Forbidden host or origin', 'FORBIDDEN');
    await next();
  };
}

/**
 * The Node request behind a Hono context when served by @hono/node-server. Reading headers
 * and body from it directly skips building a web Request (its AbortController, Headers
 * and body stream), which is most of the per-request cost of a small POST.
 */
const nodeIncoming = (c: HonoContext): IncomingMessage | undefined => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/** The local server's Hono app: REST routes generated from the endpoint table. */
export function createApp(opts: AppOptions): Hono<AppEnv> {
  const core = opts.core ?? createCore(opts);
  const app = new Hono<AppEnv>();

  if (opts.log) {
    const log = opts.log;
    app.use('*', async (c, next) => {
      const t0 = performance.now();
      await next();
      log({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - t0), keyId: c.get('keyId') });
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
      const ep = eps.find((e) => e.method === c.req.method);
      if (!ep) return envelope(c, 405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { Allow: eps.map((e) => e.method).join(', ') });
      const incoming = nodeIncoming(c);
      let rawBody: string | undefined;
      if (ep.method !== 'GET') {
        try {
          rawBody = incoming ? await readIncomingText(incoming) : await readBodyText(c.req.raw);
        } catch (err) {
          if (err instanceof BodyTooLarge) return envelope(c, 413, 'Payload too large', 'PAYLOAD_TOO_LARGE', { Connection: 'close' });
          throw err;
        }
      }
      const res = await core.invoke(ep.operationId, {
        headers: incoming ? (incoming.headers as Record<string, string | undefined>) : c.req.raw.headers,
        // Hono builds these objects on every call; most requests have neither.
        params: ep.params ? (c.req.param() as Record<string, string>) : {},
        query: (incoming?.url ?? c.req.url).includes('?') ? c.req.query() : {},
        rawBody,
      });
      if (res.keyId) c.set('keyId', res.keyId);
      // Cached envelope bytes with plain headers: the Node adapter writes them as they are.
      const cached = res.serialized;
      if (cached) {
        const headers = { ...res.headers, 'content-type': 'application/json', 'content-length': String(cached.envelope.length) };
        return new Response(cached.envelope, { status: res.status, headers });
      }
      return c.json(res.body, res.status as 200, res.headers);
    });
  }

  app.notFound((c) => envelope(c, 404, 'Not found', 'NOT_FOUND'));
  app.onError((err, c) => {
    (opts.onInternalError ?? ((e: unknown) => console.error(`cr serve: internal error: ${errorSummary(e)}`)))(err);
    return envelope(c, 500, 'Internal error', 'INTERNAL_ERROR');
  });
  return app;
}
