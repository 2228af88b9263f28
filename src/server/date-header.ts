import type { Context as HonoContext } from 'hono';
import type { Clock } from './clock.js';

/**
 * The `Date` response header from the business clock (docs/api-decisions.md §5), not the machine's:
 * the CLI takes its relative hints from this header (docs/cli-contract.md "At a terminal": one clock),
 * so with CR_NOW set the hints agree with the server's own "today" (daysUntilDue). The
 * text is kept for the second it names: formatting it on every request would cost more.
 */
export function dateHeader(clock: Clock) {
  let second = NaN;
  let text = '';
  return async (c: HonoContext, next: () => Promise<void>) => {
    await next();
    const ms = clock.now().getTime();
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      text = new Date(ms).toUTCString();
    }
    c.res.headers.set('Date', text);
  };
}
