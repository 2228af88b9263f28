import type * as HonoUrl from 'hono/utils/url';

/**
 * Hono's readings of a request target (hono/utils/url: dot segments, percent-escapes, query
 * values), which the router and the request log keep so that an odd path is judged as it
 * always was (router.ts, test/server/carriers.test.ts). Loaded on the first request that needs
 * one: a path with anything but plain characters, a query string, a logged path with a
 * percent-escape. A plain path, such as `--local`'s `GET /api/v1/finance/summary`, is read
 * without it: a run loads only what it uses (CONTRIBUTING.md, "How `cr` starts").
 */
let reading: typeof HonoUrl | undefined;

/** The readings once loaded (loadUrlReading), else undefined. */
export const urlReading = (): typeof HonoUrl | undefined => reading;

/** Loads the readings (once); resolves when urlReading() has them. */
export function loadUrlReading(): Promise<typeof HonoUrl> {
  if (reading) return Promise.resolve(reading);
  return import('hono/utils/url').then((m) => (reading = m));
}
