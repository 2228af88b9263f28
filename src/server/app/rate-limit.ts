import { DEFAULT_RATE_LIMIT } from '../../api/vocabulary.js';
import { realClock } from '../domain/clock.js';
import type { RealClock } from '../domain/clock.js';
import { andThen } from '../store/api-store.js';
import type { ApiStore, Awaitable, RateWindow } from '../store/api-store.js';

export const WINDOW_MS = 3_600_000;
export { DEFAULT_RATE_LIMIT };
/** The published Retry-After value (docs/api-decisions.md, Limits), whatever the window's remainder. */
export const RETRY_AFTER_SECONDS = 3600;
export { rateLimitFileOf } from '../store/rate-windows.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the window ends. */
  reset: number;
}

export interface RateLimiterOptions {
  /** Where the windows are counted (the store's atomic hit-and-count, src/server/store/api-store.ts). */
  store: Pick<ApiStore, 'rateHit' | 'ratePeek'>;
  limit?: number;
  /** Real time, never the business clock (docs/api-decisions.md §5). */
  now?: RealClock;
}

/**
 * Fixed one-hour window per key, starting at the key's first request in the window
 * (docs/api-decisions.md §3). The store counts (so servers sharing a store share the count);
 * this decides what a count means: allowed or not, and the X-RateLimit-* values.
 */
export class RateLimiter {
  readonly limit: number;
  private readonly now: RealClock;
  private readonly store: RateLimiterOptions['store'];

  constructor(opts: RateLimiterOptions) {
    this.limit = opts.limit ?? DEFAULT_RATE_LIMIT;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new Error(`Rate limit must be a positive integer, got ${this.limit}`);
    this.now = opts.now ?? realClock;
    this.store = opts.store;
  }

  private decision(w: RateWindow, allowed: boolean): RateDecision {
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - w.count), reset: Math.ceil((w.start + WINDOW_MS) / 1000) };
  }

  /** Counts one request of the key and says whether it may proceed. */
  hit(keyId: string): Awaitable<RateDecision> {
    return andThen(this.store.rateHit(keyId, this.now(), WINDOW_MS), (w) => this.decision(w, w.count <= this.limit));
  }

  /** The key's standing without counting a request (headers of an MCP exchange that made no tool call). */
  peek(keyId: string): Awaitable<RateDecision> {
    const now = this.now();
    return andThen(this.store.ratePeek(keyId, now, WINDOW_MS), (found) => {
      const w = found ?? { start: now, count: 0 };
      return this.decision(w, w.count < this.limit);
    });
  }
}
