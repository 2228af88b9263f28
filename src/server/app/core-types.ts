import type { OperationId } from '../../api/endpoints.js';
import type { Clock } from '../domain/clock.js';
import type { Serialized } from '../domain/compute/serialized.js';
import type { RateLimiter } from './rate-limit.js';
import type { ApiStore } from '../store/api-store.js';

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
  /** Why a 5xx happened, in one word (a store's UnavailableCause, `store_full`, `internal_error`): for the log and metrics. */
  cause?: string;
  /** `body` already serialised, when the handler's result came with its JSON bytes. */
  serialized?: Serialized;
}

export interface ServerCore {
  store: ApiStore;
  clock: Clock;
  rateLimiter: RateLimiter;
  /**
   * Runs one operation through the whole pipeline: key, rate limit, role, validation,
   * scope, lookup, state. REST routes and MCP tools both call this.
   */
  invoke(operationId: OperationId, req: ApiRequest): Promise<ApiResponse>;
}
