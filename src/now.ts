import { UsageError } from './errors.js';

/**
 * The business "now" (docs/api-decisions.md §5): CR_NOW when set (tests, demos), else the real clock.
 * CR_NOW is parsed here only, on first use, and the result kept: the context hands this
 * clock to the embedded server and `cr serve` too, so one process reads it once. The rule
 * is the local server's (src/server/domain/clock.ts): an ISO 8601 date-time.
 */
export function nowFrom(env: NodeJS.ProcessEnv): () => Date {
  let fixed: number | null | undefined;
  return () => {
    fixed ??= parseNow(env.CR_NOW);
    return fixed === null ? new Date() : new Date(fixed);
  };
}

/** CR_NOW as epoch milliseconds; null when unset; a usage error when it is no ISO date-time. */
export function parseNow(raw: string | undefined): number | null {
  const text = raw?.trim();
  if (!text) return null;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`CR_NOW is not an ISO 8601 date-time: ${text}`);
  return ms;
}
