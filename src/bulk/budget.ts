import { localResetOf, resetOf, retryAfterMsOf } from '../http/rate-budget.js';

/**
 * The key's rate budget as the server reports it (docs/api-decisions.md §2-3: every response has
 * X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset in epoch seconds; a 429
 * has Retry-After). The run never starts a send the budget cannot pay for:
 *
 * - before any answer the budget is unknown, so one request goes alone and reads it;
 * - then a send starts only while `remaining - inFlight > 0`. `remaining` is the lowest
 *   value seen in the current window (answers can arrive out of order; within a window
 *   the count only goes down), and every request in flight may already be counted in it
 *   or not, so subtracting them all never overspends;
 * - a later Reset means a new window: its Remaining is taken as it is;
 * - a 429 empties the budget until the wait is over (windowReset): answers of sends that were
 *   already in flight when it came are not read until then. Their Reset may name a later
 *   window than the 429's (a 429 with a Retry-After shorter than the window, an injected
 *   fault), which would otherwise pass for a new window whose Remaining replaces the 0 and
 *   let sends start at once (docs/cli-contract.md: a 429 stops new sends).
 *
 * A server that sends no X-RateLimit headers leaves the budget unlimited.
 */
export class RateBudget {
  private remaining: number | undefined;
  /** When the window ends, on the local clock (what a wait sleeps until). */
  private resetMs: number | undefined;
  /** The same, as the server sent it (its clock): what tells a new window from the current one. */
  private windowEnd: number | undefined;
  private known = false;
  private unlimited = false;
  /** A 429 came: nothing starts, and no other answer is read, until windowReset. */
  private refused = false;

  /** Whether one more send may start with `inFlight` sends under way. */
  canStart(inFlight: number): boolean {
    if (this.unlimited) return true;
    if (!this.known) return inFlight === 0;
    return (this.remaining ?? 0) - inFlight > 0;
  }

  /** True when nothing may start until the window resets (and nothing is in flight to tell otherwise). */
  exhausted(): boolean {
    return this.known && !this.unlimited && (this.remaining ?? 0) <= 0;
  }

  /** Epoch ms when the current window ends, when known. */
  resetAt(): number | undefined {
    return this.resetMs;
  }

  /** Reads the headers of any answer (success or error). Header names are lower case. */
  observe(headers: Record<string, string>, status: number, nowMs: number): void {
    const remaining = intHeader(headers['x-ratelimit-remaining']);
    // Out-of-range values (more than a week ahead) are ignored, as if not sent (src/http/rate-budget.ts).
    const byReset = resetOf(headers, nowMs);
    const localReset = localResetOf(headers, nowMs);
    if (status === 429) {
      this.known = true;
      this.unlimited = false;
      this.remaining = 0;
      const wait = retryAfterMsOf(headers, nowMs);
      const byRetry = wait === undefined ? undefined : nowMs + wait;
      // The nearer of the two: the window's end is exact, Retry-After is the published upper bound.
      const until = localReset !== undefined && localReset > nowMs ? localReset : (byRetry ?? localReset ?? nowMs + 60_000);
      // Several 429s while refused: the wait lasts until the latest of them allows.
      this.resetMs = this.refused && this.resetMs !== undefined ? Math.max(this.resetMs, until) : until;
      this.windowEnd = byReset;
      this.refused = true;
      return;
    }
    if (this.refused) return;
    if (remaining === undefined) {
      if (!this.known) this.unlimited = true;
      return;
    }
    if (!this.known || this.unlimited || (byReset !== undefined && this.windowEnd !== undefined && byReset > this.windowEnd)) {
      this.remaining = remaining;
      this.resetMs = localReset;
      this.windowEnd = byReset;
    } else {
      this.remaining = Math.min(this.remaining ?? remaining, remaining);
      this.resetMs ??= localReset;
      this.windowEnd ??= byReset;
    }
    this.known = true;
    this.unlimited = false;
  }

  /** After waiting for the reset: the new window is unknown until the next answer. */
  windowReset(): void {
    this.refused = false;
    this.known = false;
    this.remaining = undefined;
  }
}

function intHeader(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
