import type { OperationId } from '../../api/endpoints.js';
import type { Clock } from '../domain/clock.js';
import type { Serialized } from '../domain/compute/serialized.js';
import type { RateLimiter } from './rate-limit.js';
import type { ApiStore } from '../store/api-store.js';

// The shapes of a call to one operation and of the operations over a store, apart from
// operations.ts, which makes them: what only passes operations along (the router, the carriers,
// MCP) depends on their shape alone, and no import circle runs through the checks.

/** A request to one operation, as a REST route or an MCP tool call hands it over. */
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

/**
 * The endpoint table's operations over one store (operations.ts): what every carrier's route
 * reaches once the request is a call to an operation. It holds the store, the business clock
 * and the rate limiter the admin routes and MCP also read.
 */
export interface Operations {
  store: ApiStore;
  clock: Clock;
  rateLimiter: RateLimiter;
  /**
   * Runs one operation through the whole pipeline: key, rate limit, role, validation,
   * scope, lookup, state. REST routes and MCP tools both call this.
   */
  invoke(operationId: OperationId, req: ApiRequest): Promise<ApiResponse>;
}
