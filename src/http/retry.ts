/** Retry policy of idempotent requests (docs/cli-contract.md: GETs on network errors and 502/503/504). */

export const RETRY_ATTEMPTS = 3;
const DEFAULT_BASE_MS = 300;

export const isRetryableStatus = (status: number) => status === 502 || status === 503 || status === 504;

/**
 * The longest step: `--retry N` of bulk runs takes any N (docs/cli-contract.md), and an
 * uncapped step doubles into days by the 20th try, then past what setTimeout can hold,
 * which fires at once (a tight loop against a failing server).
 */
export const MAX_BACKOFF_MS = 30_000;

/** Exponential backoff with full jitter between 50% and 100% of the step (at most MAX_BACKOFF_MS), so clients spread out. */
export function backoffDelay(attempt: number, baseMs = DEFAULT_BASE_MS, random = Math.random): number {
  const step = Math.min(baseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(step * (0.5 + random() / 2));
}
