import { parseNow } from '../../now.js';
/**
 * The business clock (docs/api-decisions.md §5): every "now" the API reasons about (today for
 * finance, "in the future" for scheduling, timestamps of new records) comes from here.
 * `CR_NOW` fixes it for tests and demos. The rate-limit window never uses this clock:
 * it always runs on real time (see `RealClock`).
 */
export interface Clock {
  now(): Date;
}

/** Milliseconds since the epoch, real time; injectable so tests can move a rate-limit window. */
export type RealClock = () => number;

export const realClock: RealClock = () => Date.now();

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Number.isNaN(ms)) throw new Error(`Invalid fixed clock time: ${String(at)}`);
  return { now: () => new Date(ms) };
}

/** The clock fixed by `CR_NOW` (an ISO 8601 date-time) when set, else the system clock; parsed by src/now.ts, the one reader of CR_NOW. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const fixed = parseNow(env.CR_NOW);
  return fixed === null ? systemClock : fixedClock(new Date(fixed));
}

const DAY_MS = 86_400_000;
let lastDay = NaN;
let lastDate = '';

/**
 * The clock's UTC calendar date, YYYY-MM-DD. Remembers the last day it formatted: every
 * finance request asks for today, and formatting a date was ~2 % of serving one.
 */
export function utcDate(d: Date): string {
  const day = Math.floor(d.getTime() / DAY_MS);
  if (day !== lastDay) {
    lastDate = d.toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDate;
}
