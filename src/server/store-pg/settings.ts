import type { Sql } from 'postgres';
import { UsageError } from '../../errors.js';
import { MAX_RATE_LIMIT } from '../../api/vocabulary.js';

/**
 * Settings every server on one database must agree on (docs/shared-sandbox.md "Settings shared
 * by every server"), kept in the database (migration 4) rather than trusted to each server's
 * flags: two servers counting one key against different limits would each be right about a
 * different number.
 */
const RATE_LIMIT = 'rate_limit';

/** The schema version that made cr_settings (migrations.ts). */
export const SETTINGS_SCHEMA = 4;

/**
 * The hourly rate limit this server counts with: the database's. A database without one takes
 * this server's (`given`, else `fallback`, the default), written once, so servers starting
 * together all read the value that won. A server given another value than the database's
 * refuses to start and says how to change it for every server; one given none counts with
 * the database's.
 */
export async function agreedRateLimit(sql: Sql, given: number | undefined, fallback: number, location: string): Promise<number> {
  // Read first: a runtime role may only read cr_settings (docs/shared-sandbox.md "Roles").
  const stored = (await storedRateLimit(sql, location)) ?? (await storeFirst(sql, given ?? fallback, location));
  if (given !== undefined && stored !== given)
    throw new UsageError(
      `--rate-limit ${given} disagrees with the rate limit the servers of this database count with (${stored} requests a key an hour): every server on one database counts one limit`,
      `start this server without --rate-limit (it then counts with ${stored}); to change the limit for every server, run cr local migrate --store ${location} --rate-limit ${given} as the role that owns the schema, then restart the servers`,
    );
  return stored;
}

/** Sets the rate limit for every server of the database (`cr local migrate --rate-limit`); servers read it at start. */
export async function setRateLimit(sql: Sql, value: number): Promise<void> {
  await sql`INSERT INTO cr_settings (name, value) VALUES (${RATE_LIMIT}, ${sql.json(value)})
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, set_at = now()`;
}

/** A database without a rate limit (one an older cr migrated) gets this server's, written once: the first server's wins. */
async function storeFirst(sql: Sql, value: number, location: string): Promise<number> {
  try {
    await sql`INSERT INTO cr_settings (name, value) VALUES (${RATE_LIMIT}, ${sql.json(value)}) ON CONFLICT (name) DO NOTHING`;
  } catch (err) {
    if ((err as { code?: string }).code !== '42501') throw err;
    throw new UsageError(
      `the database ${location} holds no rate limit, and this role may not store one`,
      `run cr local migrate --store ${location} as the role that owns the schema (it stores the default, or --rate-limit N), then start the servers`,
    );
  }
  return (await storedRateLimit(sql, location))!;
}

/**
 * The database's rate limit, or undefined when no server or migrate set one. A stored value
 * that is no positive integer (edited by hand) is refused, naming the command that sets it.
 */
export async function storedRateLimit(sql: Sql, location: string): Promise<number | undefined> {
  const [row] = await sql`SELECT value FROM cr_settings WHERE name = ${RATE_LIMIT}`;
  if (!row) return undefined;
  const n = row.value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_RATE_LIMIT)
    throw new UsageError(
      `the rate limit stored in ${location} (cr_settings) is not an integer from 1 to ${MAX_RATE_LIMIT}`,
      `set it again: cr local migrate --store ${location} --rate-limit N, as the role that owns the schema`,
    );
  return n;
}
