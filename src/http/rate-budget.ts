/**
 * The key's rate budget as the server reports it (X-RateLimit-Limit, -Remaining, -Reset;
 * docs/api-decisions.md "Limits"), and when a rate-limited key may go on, said for people: a clock
 * time in the local time zone and how long that is (docs/cli-contract.md "At a terminal": relative hints
 * come from one clock, the server's `Date` header when present, else the local clock).
 */
export interface RateBudget {
  limit: number;
  remaining: number;
  /** When the window ends, on the local clock. */
  resetAt: Date;
  /** Milliseconds until then. */
  resetInMs: number;
}

/** Below this share of the limit left, a command says so on stderr (once). */
export const LOW_BUDGET_SHARE = 0.1;

/**
 * The furthest ahead a rate-limit header is believed: a week, past any hourly or daily window
 * (the API's is one hour, docs/api-decisions.md §3) with room for skewed clocks. A reset or
 * Retry-After farther out (`X-RateLimit-Reset: 99999999999999`) is ignored as if it were not
 * sent: read as a date it would be an invalid one, and as a wait a timer past ~24.8 days fires
 * at once (docs/reliability.md "Rate-limit headers out of range").
 */
export const MAX_RATE_WAIT_MS = 7 * 86_400_000;

const whole = (v: string | undefined) => (v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined);

/** The server's clock from its `Date` header, else undefined. */
function serverNow(headers: Record<string, string>): number | undefined {
  const t = headers.date ? Date.parse(headers.date) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** Milliseconds until an absolute server time (epoch ms), measured on the server's clock when it gave one. */
function untilServerTime(headers: Record<string, string>, at: number, localNow: number): number {
  return Math.max(0, at - (serverNow(headers) ?? localNow));
}

/**
 * That server time on the local clock: the same instant when the clocks agree within a few
 * seconds (the `Date` header has whole seconds only), else shifted by the server's skew.
 */
function onLocalClock(headers: Record<string, string>, at: number, localNow: number): Date {
  const server = serverNow(headers);
  if (server === undefined || Math.abs(server - localNow) < 5000) return new Date(Math.max(at, localNow));
  return new Date(localNow + Math.max(0, at - server));
}

/** An absolute server time (epoch ms), when it is at most MAX_RATE_WAIT_MS ahead of the server's clock. */
const inRange = (headers: Record<string, string>, at: number, localNow: number): number | undefined =>
  at - (serverNow(headers) ?? localNow) <= MAX_RATE_WAIT_MS ? at : undefined;

/** X-RateLimit-Reset (epoch seconds) as epoch ms on the server's clock; undefined when absent, malformed or out of range. */
export function resetOf(headers: Record<string, string>, localNow: number = Date.now()): number | undefined {
  const reset = whole(headers['x-ratelimit-reset']);
  return reset === undefined ? undefined : inRange(headers, reset * 1000, localNow);
}

/**
 * An HTTP-date as RFC 9110 §5.6.7 has it (IMF-fixdate, RFC 850, asctime): it starts with a day
 * name. Date.parse alone also reads `-1`, `+5` or `1.5` as dates in the past, which made them
 * "retry now" (a bulk --wait then retried four times a second).
 */
const HTTP_DATE = /^[A-Za-z]{3,9},? /;

/**
 * X-RateLimit-Reset placed on the local clock (epoch ms), for code that waits on it: the wait is
 * measured on the server's clock, so a server whose clock is far off (years ahead, or at the
 * last date JavaScript holds) neither makes the wait years long nor an invalid date.
 */
export function localResetOf(headers: Record<string, string>, localNow: number = Date.now()): number | undefined {
  const reset = resetOf(headers, localNow);
  return reset === undefined ? undefined : onLocalClock(headers, reset, localNow).getTime();
}

/** Retry-After (seconds or an HTTP date) as a wait in ms from now; undefined when absent, malformed or out of range. */
export function retryAfterMsOf(headers: Record<string, string>, localNow: number = Date.now()): number | undefined {
  const ra = headers['retry-after']?.trim();
  if (!ra) return undefined;
  if (!/^\d+$/.test(ra) && !HTTP_DATE.test(ra)) return undefined;
  const ms = /^\d+$/.test(ra) ? Number(ra) * 1000 : Date.parse(ra) - (serverNow(headers) ?? localNow);
  return Number.isNaN(ms) || ms > MAX_RATE_WAIT_MS ? undefined : Math.max(0, ms);
}

/** The budget in a response's headers, or undefined when they are missing, malformed or out of range. */
export function budgetOf(headers: Record<string, string>, localNow: number = Date.now()): RateBudget | undefined {
  const limit = whole(headers['x-ratelimit-limit']);
  const remaining = whole(headers['x-ratelimit-remaining']);
  const reset = resetOf(headers, localNow);
  if (limit === undefined || remaining === undefined || reset === undefined || limit === 0) return undefined;
  const resetInMs = untilServerTime(headers, reset, localNow);
  return { limit, remaining, resetAt: onLocalClock(headers, reset, localNow), resetInMs };
}

export const isLow = (b: RateBudget) => b.remaining < b.limit * LOW_BUDGET_SHARE;

/** `in 45 s`, `in 23 min`, `in 3 h`. */
export function inWords(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const min = Math.round(s / 60); // the Date header's whole seconds would otherwise turn 60 min into 61
  if (min < 120) return `in ${min} min`;
  return `in ${Math.round(min / 60)} h`;
}

/** `14:05`, in the local time zone (TZ); with the date when it is not within the next 20 hours. */
export function clockTime(at: Date, inMs: number): string {
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }).format(at);
  if (inMs < 20 * 3_600_000) return time;
  const day = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return `${day} ${time}`;
}

/** `14:05 (in 23 min)`. */
export const whenText = (at: Date, inMs: number) => `${clockTime(at, inMs)} (${inWords(inMs)})`;

/**
 * When a 429's key may go on: the window's reset (X-RateLimit-Reset) when given, else
 * Retry-After (seconds or an HTTP date); undefined when the answer says neither (in range).
 */
export function retryWhen(headers: Record<string, string>, localNow: number = Date.now()): string | undefined {
  const wait = retryAfterMsOf(headers, localNow);
  const at = resetOf(headers, localNow) ?? (wait === undefined ? undefined : (serverNow(headers) ?? localNow) + wait);
  if (at === undefined) return undefined;
  const inMs = untilServerTime(headers, at, localNow);
  return whenText(onLocalClock(headers, at, localNow), inMs);
}

/** The notice a command prints (once) when fewer than 10 % of the key's requests are left. */
export const lowBudgetNotice = (b: RateBudget) =>
  `cr: rate limit: ${b.remaining} of ${b.limit} requests left for this key until ${whenText(b.resetAt, b.resetInMs)}`;
