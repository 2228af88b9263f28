/** Telling a database URL from a file path: src/server/store/database-url.ts. */
export { isDatabaseUrl } from '../store/database-url.js';

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}
