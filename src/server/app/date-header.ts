import type { Clock } from '../domain/clock.js';

/**
 * The `Date` response header from the business clock (docs/api-decisions.md §5), not the machine's:
 * the CLI takes its relative hints from this header (docs/cli-contract.md "At a terminal": one clock),
 * so with CR_NOW set the hints agree with the server's own "today" (daysUntilDue).
 *
 * The `Date` header's text for the clock's current second. The text is kept for the second
 * it names: formatting it on every request would cost more.
 */
export function dateText(clock: Clock): () => string {
  let second = Number.NaN;
  let text = '';
  return () => {
    const ms = clock.now().getTime();
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      text = new Date(ms).toUTCString();
    }
    return text;
  };
}
