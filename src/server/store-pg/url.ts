/**
 * Whether a `--store` / CR_STORE value names a PostgreSQL database instead of a JSON file
 * (docs/shared-sandbox.md). Kept apart from the store itself so that telling the two apart
 * loads no database client.
 */
export const isDatabaseUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store.trim());

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
