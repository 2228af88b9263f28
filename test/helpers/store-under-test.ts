import { join } from 'node:path';
import { beforeAll, inject } from 'vitest';

/**
 * The store the command tests' servers and local commands work on (docs/shared-sandbox.md
 * "Running the tests on PostgreSQL"): the JSON file by default, PostgreSQL in the `commands-pg`
 * project of vitest.config.ts, which runs the same files again.
 *
 * A database made here is the run's: it is left in place, and test/pg-setup.ts drops them all
 * at the end (or stops the whole cluster it started). Dropping one forces a checkpoint of the
 * cluster; one per test cost seconds of waiting on the disk each.
 */
export const onPostgres = (): boolean => inject('commandStore') === 'postgres';

/** Where a test's server keeps the store file written at `jsonPath`: that file, or a new database holding the same records. */
export async function storeFrom(jsonPath: string): Promise<string> {
  if (!onPostgres()) return jsonPath;
  // Loaded only here: the JSON pass never loads the PostgreSQL client.
  const { databaseFrom } = await import('./postgres.js');
  return databaseFrom(jsonPath);
}

/** A store not made yet, for the commands that make one (`cr local init`, `cr local seed`): a file path in `dir`, or a new, empty database. */
export async function newStore(dir: string): Promise<string> {
  if (!onPostgres()) return join(dir, 'store.json');
  const { runDatabase } = await import('./postgres.js');
  return runDatabase();
}

/** `storeFrom` for the whole file (its beforeAll); `location()` inside tests. */
export function useStoreFrom(write: () => string): { location: () => string } {
  let store: string | undefined;
  beforeAll(async () => {
    store = await storeFrom(write());
  });
  return {
    location: () => {
      if (!store) throw new Error('the store is not made yet (use it inside tests)');
      return store;
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    commandStore?: 'json' | 'postgres';
  }
}
