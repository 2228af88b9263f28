/**
 * Whether a `--store` / CR_STORE value names a PostgreSQL database instead of a JSON file
 * (docs/shared-sandbox.md). A file of its own, outside src/server/store-pg/, so that telling the
 * two apart loads nothing of the PostgreSQL store: a JSON-file run (`--local`, `cr serve`) asks
 * it on every start.
 */
export const isDatabaseUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store.trim());
