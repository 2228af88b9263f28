import type { Sql } from 'postgres';
import { UsageError } from '../../errors.js';
import { CLIENT_OPTIONS, connectionSettings, type ConnectionContext } from './connection.js';
import { explainTlsRefusal } from './ssl-refused.js';
import { migrate, migrationsAfter, SchemaTooNewError, schemaVersion } from './migrate.js';
import { NEWEST_SCHEMA } from './migrations.js';
import { SETTINGS_SCHEMA, setRateLimit, storedRateLimit } from './settings.js';
import { DEFAULT_RATE_LIMIT } from '../../api/vocabulary.js';
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
  /** The rate limit every server counts with, before and after, null for none (docs/shared-sandbox.md "Settings shared by every server"). */
  rateLimit: { before: number | null; after: number | null };
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
    sql = postgres(settings.url, { ...CLIENT_OPTIONS, ...settings.options, max: 1, connection: { application_name: 'cr local migrate' } });
  } catch (err) {
    throw new UsageError(`the store ${location} is not a PostgreSQL URL the client can read (${(err as Error).message})`);
  }
  try {
    const from = await schemaVersion(sql);
    // Read leniently: a tampered value is what --rate-limit is here to replace.
    const before = from >= SETTINGS_SCHEMA ? await storedRateLimit(sql, location).catch(() => null) : null;
    // None stored: the default is, so a runtime role that may only read cr_settings can start a server (docs/shared-sandbox.md "Roles").
    const wanted = o.rateLimit ?? before ?? DEFAULT_RATE_LIMIT;
    if (o.dryRun) {
      const pending = migrationsAfter(from);
      return { store: location, dryRun: true, from, to: NEWEST_SCHEMA, migrations: pending.map(shown), rateLimit: { before: before ?? null, after: wanted } };
    }
    const done = await migrate(sql);
    if (wanted !== before) await setRateLimit(sql, wanted);
    return {
      store: location,
      dryRun: false,
      from: done.from,
      to: done.to,
      migrations: done.applied.map(shown),
      rateLimit: { before: before ?? null, after: (await storedRateLimit(sql, location)) ?? null },
    };
  } catch (err) {
    if (err instanceof SchemaTooNewError || err instanceof UsageError) throw err;
    throw new DatabaseUnreachableError(location, hostPortOf(url), await explainTlsRefusal(err, sql.options));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const shown = (m: { version: number; what: string; sql: string }) => ({ version: m.version, what: m.what, sql: m.sql.trim() });
