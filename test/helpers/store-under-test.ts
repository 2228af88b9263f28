import { inject } from 'vitest';

/**
 * The store the command tests' servers run over (docs/shared-sandbox.md "Running the tests on
 * PostgreSQL"): the JSON file by default, PostgreSQL in the `commands-pg` project of
 * vitest.config.ts, which runs the same files again.
 */
export const onPostgres = (): boolean => inject('commandStore') === 'postgres';

/**
 * Where a test's server keeps the store file written at `jsonPath`: that file itself, or a
 * fresh database holding the same records. `drop` removes the database (nothing for a file).
 */
export async function storeFrom(jsonPath: string): Promise<{ location: string; drop: () => Promise<void> }> {
  if (!onPostgres()) return { location: jsonPath, drop: async () => undefined };
  // Loaded only here: the JSON pass never loads the PostgreSQL client.
  const { databaseFrom } = await import('./postgres.js');
  const db = await databaseFrom(jsonPath);
  return { location: db.url, drop: db.drop };
}

declare module 'vitest' {
  export interface ProvidedContext {
    commandStore?: 'json' | 'postgres';
  }
}
