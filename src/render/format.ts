/** Formatting of money and dates for tables (docs/cli-contract.md §4). Pure; `now` is injected. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat | undefined {
  const code = currency.toUpperCase();
  if (!moneyFormats.has(code)) {
    try {
      moneyFormats.set(code, new Intl.NumberFormat('en-US', { style: 'currency', currency: code }));
    } catch {
      return undefined;
    }
  }
  return moneyFormats.get(code);
}

// Made on first use: the first Intl formatter a process makes loads ICU's locale data (~15 ms),
// which a --json run that formats no money should not pay (docs/benchmarks.md, CLI start-up).
let plainFormat: Intl.NumberFormat | undefined;
const plainAmount = {
  format(amount: number): string {
    plainFormat ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return plainFormat.format(amount);
  },
};

/**
 * Cents in a currency: 1234567, 'USD' → `$12,345.67`; an unknown code → `12,345.67 XYZ`;
 * no currency (null: the CLI cannot know it) → `12,345.67`, never a guessed symbol.
 */
export function formatMoney(cents: number, currency: string | null): string {
  const amount = cents / 100;
  if (!currency) return plainAmount.format(amount);
  const format = moneyFormat(currency);
  if (format) return format.format(amount);
  return `${plainAmount.format(amount)} ${currency.toUpperCase()}`;
}

const DAY_MS = 86_400_000;

/** Whole calendar days from `now`'s UTC date to `date` (YYYY-MM-DD or a date-time). */
export function daysFromToday(date: string, now: Date): number {
  const target = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((target - today) / DAY_MS);
}

export function relativeDays(days: number): string {
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

/** `2026-12-01 (in 9 days)`; null → `-`. */
export function formatDateHint(date: string | null | undefined, now: Date): string {
  if (!date) return '-';
  const day = date.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return date;
  return `${day} (${relativeDays(daysFromToday(day, now))})`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone (an IANA name such as `Europe/Berlin`); an unknown name falls back to UTC. */
function timeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = timeFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    };
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: timeZone || undefined });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    timeFormats.set(key, format);
  }
  return format;
}

/** A date-time at minute precision in a time zone (the process's when none is named): `2026-12-01 15:30 GMT+1`. */
export function formatLocalTime(d: Date, timeZone?: string): string {
  const p: Record<string, string> = {};
  for (const part of timeFormat(timeZone).formatToParts(d)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/**
 * A date-time for tables, in the local time zone (docs/cli-contract.md "At a terminal": `TZ`) at minute
 * precision, with a hint relative to `now`: `2026-12-01 14:30 UTC (in 9 days)`. `past`: the value
 * records something that has happened, so its hint never points ahead.
 */
export function formatDateTimeHint(value: string | null | undefined, now: Date, timeZone?: string, past = false): string {
  if (!value) return '-';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const ms = d.getTime() - now.getTime();
  // An instant that has happened (a creation, an update) is never "in …": the clock it is
  // compared with (the Date header, whole seconds) may lag the stamp by under a second or two.
  return `${formatLocalTime(d, timeZone)} (${relativeTime(past ? Math.min(ms, 0) : ms)})`;
}

/** `in 2 hours`, `5 minutes ago`, `in 3 days`. */
export function relativeTime(ms: number): string {
  const abs = Math.abs(ms);
  const units: [number, string][] = [
    [DAY_MS, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, name] of units) {
    if (abs >= size) {
      const n = Math.round(abs / size);
      const label = `${n} ${name}${n === 1 ? '' : 's'}`;
      return ms >= 0 ? `in ${label}` : `${label} ago`;
    }
  }
  return ms > 0 ? 'in less than a minute' : 'just now';
}

/** Confidence 0..1 (or already a percentage) as `87%`. */
export function formatPercent(value: number): string {
  const pct = value <= 1 ? value * 100 : value;
  return `${Math.round(pct)}%`;
}

/** Cuts text to `max` code points with an ellipsis, on one line. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}
