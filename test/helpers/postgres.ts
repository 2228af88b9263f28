import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

/** The test run's PostgreSQL server (test/pg-setup.ts), as a URL of its `postgres` database. */
export const serverUrl = (): string => inject('pgUrl');

const withDatabase = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

/** A new, empty database on the test server; dropped by the returned function. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cr_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl(), name),
    drop: async () => {
      const sql = postgres(serverUrl(), { max: 1, onnotice: () => undefined });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}
