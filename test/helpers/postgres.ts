import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { inject } from 'vitest';
import { copyStore } from '../../src/local/copy-store.js';

/** The test run's PostgreSQL server (test/pg-setup.ts), as a URL of its `postgres` database. */
export const serverUrl = (): string => inject('pgUrl');

const withDatabase = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

const admin = () => postgres(serverUrl(), { max: 1, onnotice: () => undefined });

/** A database of this name on the test server; dropped by the returned function. */
async function createDatabase(name: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const sql = admin();
  try {
    await sql.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await sql.end();
  }
  return {
    url: withDatabase(serverUrl(), name),
    drop: async () => {
      const s = admin();
      try {
        await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await s.end();
      }
    },
  };
}

/**
 * A new, empty database of this run's. Its `drop` only closes the test's claim on it: the
 * run's databases are dropped together at the end (test/pg-setup.ts), because each DROP
 * DATABASE waits for a checkpoint of its own, seconds on a busy disk, and a drop per test
 * was most of the PostgreSQL tests' time.
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return { url: await runDatabase(), drop: async () => undefined };
}

/** A new, empty database of this run's, left for test/pg-setup.ts to drop at the end. */
export async function runDatabase(template?: string): Promise<string> {
  return (await createDatabase(`${inject('pgRunPrefix')}${randomBytes(6).toString('hex')}`, template)).url;
}

/**
 * A new database of this run's holding the records of the store file at `jsonPath`, loaded by
 * `cr local copy`'s own code (src/local/copy-store.ts). Each distinct file is loaded once per
 * run, into a template database; every database after it is a copy of that (`CREATE DATABASE …
 * TEMPLATE`, a few tens of milliseconds instead of a load). Workers building the same template
 * take turns on an advisory lock.
 */
export async function databaseFrom(jsonPath: string): Promise<string> {
  const digest = createHash('sha256').update(readFileSync(jsonPath)).digest('hex').slice(0, 16);
  const template = `${inject('pgRunPrefix')}tpl_${digest}`;
  const sql = admin();
  try {
    await sql`SELECT pg_advisory_lock(hashtext(${template}))`;
    try {
      const [found] = await sql`SELECT 1 FROM pg_database WHERE datname = ${template}`;
      if (!found) {
        const made = await createDatabase(template);
        await copyStore(jsonPath, made.url).catch(async (err: unknown) => {
          await made.drop();
          throw err;
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${template}))`;
    }
  } finally {
    await sql.end();
  }
  return runDatabase(template);
}
