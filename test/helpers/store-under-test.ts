import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

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

/**
 * A store not made yet, for the commands that make one (`cr local init`, `cr local seed`): a
 * file path in `dir`, or a new, empty database. `drop` removes the database.
 */
export async function newStore(dir: string): Promise<{ location: string; drop: () => Promise<void> }> {
  if (!onPostgres()) return { location: join(dir, 'store.json'), drop: async () => undefined };
  const { freshDatabase } = await import('./postgres.js');
  const db = await freshDatabase();
  return { location: db.url, drop: db.drop };
}

/** `storeFrom` for the whole file (its beforeAll), dropped in its afterAll; `location()` inside tests. */
export function useStoreFrom(write: () => string): { location: () => string } {
  let store: Awaited<ReturnType<typeof storeFrom>> | undefined;
  beforeAll(async () => {
    store = await storeFrom(write());
  });
  afterAll(() => store?.drop());
  return {
    location: () => {
      if (!store) throw new Error('the store is not made yet (use it inside tests)');
      return store.location;
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    commandStore?: 'json' | 'postgres';
  }
}
