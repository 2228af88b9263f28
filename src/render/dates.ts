import { formatDateHint, formatDateTimeHint, formatLocalTime } from './format.js';
import type { Column } from './view.js';

/**
 * The one clock of relative hints and the zone of shown times (docs/cli-contract.md "At a terminal"):
 * the server's `Date` response header when it sent one, else the local clock (`CR_NOW` in
 * tests); times in the local time zone, `TZ` when set.
 */
export interface ShownTime {
  now: Date;
  timeZone?: string;
}

/** The hint clock for a response: its `Date` header (RFC 9110 IMF-fixdate) when valid, else `local()`. */
export function shownTime(env: NodeJS.ProcessEnv, local: () => Date, headers?: Record<string, string>): ShownTime {
  // Read first even when the header wins: a bad CR_NOW is a usage error either way.
  const own = local();
  const stamp = headers?.date ? Date.parse(headers.date) : NaN;
  // A POSIX TZ (`:Europe/Berlin`) names the zone after its colon; Intl takes IANA names only.
  const timeZone = env.TZ?.replace(/^:/, '') || undefined;
  return { now: Number.isNaN(stamp) ? own : new Date(stamp), timeZone };
}

/** The date, or the local date-time without its zone name, for a narrow terminal. */
function shortDate(value: string | null | undefined, timeZone: string | undefined | false): string {
  if (!value) return '-';
  if (timeZone === false) return value.slice(0, 10);
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : formatLocalTime(d, timeZone).replace(/ \S+$/, '');
}

type Pick<T> = (row: T) => string | null | undefined;

/**
 * A date or date-time column: on a terminal the value with a relative hint; piped the
 * value exactly as the API sent it, plain ISO (docs/cli-contract.md "Piped TSV holds plain ISO values").
 * `past`: a creation or update time, whose hint never says "in …".
 */
export function dateColumn<T>(header: string, pick: Pick<T>, when: ShownTime, opts: { time?: boolean; past?: boolean } = {}): Column<T> {
  return {
    header,
    kind: 'date',
    value: (row) => (opts.time ? formatDateTimeHint(pick(row), when.now, when.timeZone, opts.past) : formatDateHint(pick(row), when.now)),
    plain: (row) => pick(row) ?? '',
    short: (row) => shortDate(pick(row), opts.time ? when.timeZone : false),
  };
}
