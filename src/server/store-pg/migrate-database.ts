import type { Sql } from 'postgres';
import { UsageError } from '../../errors.js';
import { connectionSettings, type ConnectionContext } from './connection.js';
import { migrate, migrationsAfter, SchemaTooNewError, schemaVersion } from './migrate.js';
import { NEWEST_SCHEMA } from './migrations.js';
import { SETTINGS_SCHEMA, setRateLimit, storedRateLimit } from './settings.js';
import { redactUrl } from '../../config/store-url.js';
import { DatabaseUnreachableError } from './pg-store.js';
import { hostPortOf } from './pg-errors.js';

export interface MigrateReport {
  /** The URL without its password. */
  store: string;
  dryRun: boolean;
  /** The schema version found, and the one after (or, with dryRun, the one it would be). */
  from: number;
  to: number;
  /** What was applied (or would be), oldest first. */
  migrations: { version: number; what: string; sql: string }[];
  /** The rate limit every server counts with, before and after (docs/shared-sandbox.md "Settings shared by every server"). */
  rateLimit: { before: number | undefined; after: number | undefined };
}

/**
 * `cr local migrate` (docs/shared-sandbox.md "Roles"): applies the migrations the database
 * lacks (migrate.ts: one transaction under the advisory lock the servers take too), and sets
 * the shared rate limit when given. With `dryRun` it only reads: the version, the migrations
 * it would apply, the setting it would change.
 */
export async function migrateDatabase(url: string, o: ConnectionContext & { dryRun: boolean; rateLimit?: number }): Promise<MigrateReport> {
  const location = redactUrl(url);
  const { default: postgres } = await import('postgres');
  const settings = connectionSettings(url, o);
  let sql: Sql;
  try {
    sql = postgres(settings.url, { ...settings.options, max: 1, onnotice: () => undefined, connection: { application_name: 'cr local migrate' } });
  } catch (err) {
    throw new UsageError(`the store ${location} is not a PostgreSQL URL the client can read (${(err as Error).message})`);
  }
  try {
    const from = await schemaVersion(sql);
    const before = from >= SETTINGS_SCHEMA ? await storedRateLimit(sql) : undefined;
    if (o.dryRun) {
      const pending = migrationsAfter(from);
      return { store: location, dryRun: true, from, to: NEWEST_SCHEMA, migrations: pending.map(shown), rateLimit: { before, after: o.rateLimit ?? before } };
    }
    const done = await migrate(sql);
    if (o.rateLimit !== undefined) await setRateLimit(sql, o.rateLimit);
    return {
      store: location,
      dryRun: false,
      from: done.from,
      to: done.to,
      migrations: done.applied.map(shown),
      rateLimit: { before, after: await storedRateLimit(sql) },
    };
  } catch (err) {
    if (err instanceof SchemaTooNewError || err instanceof UsageError) throw err;
    throw new DatabaseUnreachableError(location, hostPortOf(url), err);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const shown = (m: { version: number; what: string; sql: string }) => ({ version: m.version, what: m.what, sql: m.sql.trim() });
