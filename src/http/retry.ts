/** Retry policy of idempotent requests (docs/cli-contract.md: GETs on network errors and 502/503/504). */

export const RETRY_ATTEMPTS = 3;
const DEFAULT_BASE_MS = 300;

export const isRetryableStatus = (status: number) => status === 502 || status === 503 || status === 504;

/** Exponential backoff with full jitter between 50% and 100% of the step, so clients spread out. */
export function backoffDelay(attempt: number, baseMs = DEFAULT_BASE_MS, random = Math.random): number {
  const step = baseMs * 2 ** (attempt - 1);
  return Math.round(step * (0.5 + random() / 2));
}
