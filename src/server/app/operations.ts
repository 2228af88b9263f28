import type { z } from 'zod';
import { endpointOf } from '../../api/endpoint-modules.js';
import type { Endpoint } from '../../api/table-entry.js';
import type { OperationId } from '../../api/routes.js';
import { systemClock } from '../domain/clock.js';
import type { Clock } from '../domain/clock.js';
import { StoreFullError, StoreUnavailableError } from '../store/errors.js';
import type { ApiStore } from '../store/api-store.js';
import { authenticate, requireRole, resolveScope } from '../domain/auth.js';
import type { AuthContext } from '../domain/auth.js';
import { HttpError, internalError, validationError } from '../domain/errors.js';
import { storeUnavailable } from './unavailable.js';
import { RETRY_AFTER_SECONDS, RateLimiter } from './rate-limit.js';
import { defaultNewId, handlerOf } from '../domain/handlers.js';
import { Serialized } from '../domain/compute/serialized.js';
import type { ValidInput } from '../domain/handlers.js';
import { joinPath, safeJsonParse, shapeViolation } from '../json.js';
import { errorSummary } from '../log-text.js';
import { unsupportedMediaType } from './body.js';
import { ScopeFilterQuery as WebsiteIdQuery } from '../../api/schemas/common.js';
import type { ApiRequest, ApiResponse, Operations } from './operation-types.js';

/*
 * The endpoint table's operations over one store, apart from any transport: each call goes
 * through the key, the rate limit, the role, the media type, validation and scope, then its
 * handler (src/server/domain/handlers.ts). The router's table routes (router.ts, table-route.ts)
 * call them, whichever carrier brought the request; MCP tool calls too.
 */

export interface OperationsOptions {
  store: ApiStore;
  clock?: Clock;
  limits?: { rateLimit?: number };
  /** A ready limiter (e.g. with a sidecar file); else one is made from `limits`. */
  rateLimiter?: RateLimiter;
  newId?: () => string;
  /** Unexpected errors (500) are reported here, never to the client. */
  onInternalError?: (err: unknown) => void;
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

export function createOperations(opts: OperationsOptions): Operations {
  const store = opts.store;
  const clock = opts.clock ?? systemClock;
  const rateLimiter = opts.rateLimiter ?? new RateLimiter({ store, limit: opts.limits?.rateLimit });
  const newId = opts.newId ?? defaultNewId;
  const onInternalError = opts.onInternalError ?? ((err: unknown) => console.error(`cr serve: internal error: ${errorSummary(err)}`));

  async function invoke(operationId: OperationId, req: ApiRequest): Promise<ApiResponse> {
    const handler = handlerOf(operationId);
    const headers: Record<string, string> = {};
    let auth: AuthContext | undefined;
    try {
      // The operation's schemas load with its first request (endpoint-modules.ts); later ones find them at once.
      const found = endpointOf(operationId);
      const ep: Endpoint | undefined = found instanceof Promise ? await found : found;
      if (!ep || !handler) throw new HttpError(404, 'Not found', 'NOT_FOUND');
      // Each step waits only when the store answered with a promise (api-store.ts, Awaitable).
      const keyed = authenticate(store, headerOf(req.headers, 'authorization'));
      auth = keyed instanceof Promise ? await keyed : keyed;
      const counted = rateLimiter.hit(auth.keyId);
      const rl = counted instanceof Promise ? await counted : counted;
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
      const scoped = resolveScope(store, auth, ep.websiteScope, requestedWebsite(input));
      const scope = scoped instanceof Promise ? await scoped : scoped;
      const data = await handler.run({ store, clock, auth, scope, newId }, input);
      if (data instanceof Serialized) {
        return { status: 200, headers, body: { success: true, data: data.value }, serialized: data, keyId: auth.keyId };
      }
      return { status: 200, headers, body: { success: true, data }, keyId: auth.keyId };
    } catch (err) {
      if (err instanceof HttpError) {
        return { status: err.status, headers: { ...headers, ...err.headers }, body: err.body, keyId: auth?.keyId };
      }
      // A 5xx names its cause to the log and the metrics (pipeline.ts); a 503's also to the client.
      let answer: HttpError;
      let cause: string;
      if (err instanceof StoreFullError) [answer, cause] = [new HttpError(507, 'Store is full', 'STORE_FULL'), 'store_full'];
      else if (err instanceof StoreUnavailableError) [answer, cause] = [storeUnavailable(err.why), err.why];
      else {
        onInternalError(err);
        [answer, cause] = [internalError(), 'internal_error'];
      }
      return { status: answer.status, headers: { ...headers, ...answer.headers }, body: answer.body, keyId: auth?.keyId, cause };
    }
  }

  return { store, clock, rateLimiter, invoke };
}
