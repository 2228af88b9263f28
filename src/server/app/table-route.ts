import type { OperationId, Route } from '../../api/routes.js';
import { API_PREFIX } from '../../api/vocabulary.js';
import { BodyTooLarge } from './body.js';
import { errorEnvelope } from '../domain/errors.js';
import type { ApiRequest, Operations } from './operation-types.js';

/** One answer as any carrier sends it (the HTTP listener, or --local in-process). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Id (never the secret) of the authenticated key, for the request log. */
  keyId?: string;
  /** Why a 5xx happened, in one word (operation-types.ts ApiResponse): for the log and the metrics. */
  cause?: string;
  /** The route's name for the metrics: an operation id or a route template, never a path with ids in it. */
  route?: string;
}

/** A request to a path of the endpoint table, in the parts the pipeline reads. */
export interface TableRequest {
  method: string;
  headers: NonNullable<ApiRequest['headers']>;
  /** Path parameters, decoded; asked only of endpoints whose path has some (`{id}`). */
  params: () => Record<string, string>;
  /** The query string's values; asked on every request. */
  query: () => Record<string, unknown>;
  /** The body text, refusing more than 1 MiB with BodyTooLarge (src/server/app/body.ts). */
  readBody: () => Promise<string>;
}

const JSON_TYPE = 'application/json';

/** An error answer in the envelope of docs/api-decisions.md §1. */
export function errorAnswer(status: number, error: string, code: string, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: { ...headers, 'content-type': JSON_TYPE }, body: JSON.stringify(errorEnvelope(error, code)) };
}

/**
 * Answers a request to one path of the endpoint table: 405 for a method the path does not
 * have, 413 for a body over the limit, else the whole pipeline of `operations.invoke` (key, rate
 * limit, role, validation, scope). Every carrier reaches it through the one router (router.ts), so
 * they cannot drift apart.
 */
export async function answerTableRoute(operations: Operations, eps: readonly Route<OperationId>[], req: TableRequest): Promise<PlainAnswer> {
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
  const res = await operations.invoke(ep.operationId, { headers: req.headers, params: ep.path.includes('{') ? req.params() : {}, query: req.query(), rawBody });
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

/** A request as a carrier has it: method, path with query, headers, and a way to read the body. */
export interface CarriedRequest {
  method: string;
  /** The path with its query string. */
  url: string;
  headers: NonNullable<ApiRequest['headers']>;
  /** The body text, refusing more than `max` bytes (1 MiB unless given) with BodyTooLarge (src/server/app/body.ts). */
  readBody: (max?: number) => Promise<string>;
}
