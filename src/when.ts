import { UsageError } from './errors.js';

/** Units of a relative `--at`: minutes, hours, days (docs/cli-contract.md: `+30m`, `+2h`, `+1d`). */
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * How far ahead a post can be scheduled: 10 years (+3650d). The API sets no limit, but a
 * time further out is a typo (`+1000000d` is the year 4764), and past Date's range an
 * offset is not even a time. docs/cli-contract.md states the bound.
 */
export const MAX_AHEAD_DAYS = 3650;
const MAX_AHEAD_MS = MAX_AHEAD_DAYS * UNIT_MS.d!;

/**
 * ISO 8601 date-time with an explicit offset or Z. A zone-less time is refused rather
 * than guessed: a CI runner in UTC and an operator's laptop would read it differently.
 */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Parses `--at`: `+30m` / `+2h` / `+1d` relative to `now`, or an ISO date-time with offset. */
export function parseWhen(value: string, now: Date): Date {
  const text = value.trim();
  const rel = /^\+(\d+)\s*([mhd])$/i.exec(text);
  if (rel) {
    const n = Number(rel[1]);
    if (n <= 0) throw new UsageError(`--at ${value} must be a positive offset, like +30m, +2h or +1d`);
    const ms = n * UNIT_MS[rel[2]!.toLowerCase()]!;
    if (ms > MAX_AHEAD_MS) throw tooFar(value);
    return new Date(now.getTime() + ms);
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text) && !ISO_WITH_OFFSET.test(text)) {
    throw new UsageError(`--at ${value} has no time zone`, 'add Z (UTC) or an offset such as +02:00, e.g. 2026-12-01T09:00:00Z');
  }
  const t = ISO_WITH_OFFSET.test(text) ? Date.parse(text.replace(' ', 'T')) : NaN;
  if (Number.isNaN(t)) {
    throw new UsageError(`--at must be an ISO 8601 date-time (2026-12-01T09:00:00Z) or +30m, +2h, +1d; got "${value}"`);
  }
  // Date.parse rolls 2027-02-30 over to March 2: the date must exist as written.
  const bad = calendarProblem(text);
  if (bad) throw new UsageError(`--at ${value} is not a real date-time: ${bad}`);
  if (t - now.getTime() > MAX_AHEAD_MS) throw tooFar(value);
  return new Date(t);
}

const tooFar = (value: string) =>
  new UsageError(`--at ${value} is more than ${MAX_AHEAD_DAYS / 365} years ahead`, `schedule at most +${MAX_AHEAD_DAYS}d from now`);

/** What is wrong with the written date and time of day (month 13, February 30, 25:00), if anything. */
function calendarProblem(text: string): string | undefined {
  const [, y, mo, d, h, mi, s, oh, om] = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:Z|[+-](\d{2}):?(\d{2}))$/i
    .exec(text)!
    .map(Number);
  if (mo! < 1 || mo! > 12) return `there is no month ${mo}`;
  const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  if (d! < 1 || d! > days) return `${MONTHS[mo! - 1]} ${y} has ${days} days`;
  if (h! > 23 || mi! > 59 || (s ?? 0) > 59) return 'the time of day is out of range';
  if ((oh ?? 0) > 23 || (om ?? 0) > 59) return 'the offset is out of range';
  return undefined;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Refuses a time that is not strictly in the future (the server would refuse it too). */
export function requireFuture(at: Date, now: Date, original: string): Date {
  if (at.getTime() <= now.getTime()) {
    throw new UsageError(`--at ${original} is in the past (${at.toISOString()}; now is ${now.toISOString()})`);
  }
  return at;
}

/** The strict RFC 3339 form the API takes as it is: seconds, `T`, and `Z` or `±hh:mm`. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What to send for `--at`: the time as the user wrote it when the API takes that form (the
 * post then holds the requested time, offset included, as the API promises), else the
 * parsed instant in UTC (`+2h`, or looser spellings such as a space for `T`).
 */
export function wireTime(original: string, at: Date): string {
  const text = original.trim();
  return RFC3339.test(text) ? text : at.toISOString();
}
