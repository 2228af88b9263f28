import type { Sql } from 'postgres';
import { UsageError } from '../../errors.js';

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
  await sql`INSERT INTO cr_settings (name, value) VALUES (${RATE_LIMIT}, ${sql.json(given ?? fallback)}) ON CONFLICT (name) DO NOTHING`;
  const stored = (await storedRateLimit(sql))!;
  if (given !== undefined && stored !== given)
    throw new UsageError(
      `--rate-limit ${given} disagrees with the rate limit the servers of this database count with (${stored} requests a key an hour): every server on one database counts one limit`,
      `start this server without --rate-limit (it then counts with ${stored}); to change the limit for every server, run cr local migrate --store ${location} --rate-limit ${given}, then restart the servers`,
    );
  return stored;
}

/** Sets the rate limit for every server of the database (`cr local migrate --rate-limit`); servers read it at start. */
export async function setRateLimit(sql: Sql, value: number): Promise<void> {
  await sql`INSERT INTO cr_settings (name, value) VALUES (${RATE_LIMIT}, ${sql.json(value)})
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, set_at = now()`;
}

/** The database's rate limit, or undefined when no server or migrate set one. */
export async function storedRateLimit(sql: Sql): Promise<number | undefined> {
  const [row] = await sql`SELECT value FROM cr_settings WHERE name = ${RATE_LIMIT}`;
  return row ? Number(row.value) : undefined;
}
