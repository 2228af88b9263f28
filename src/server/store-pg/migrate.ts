import type { Sql } from 'postgres';
import { type Migration, MIGRATION_LOCK_KEY, MIGRATIONS, NEWEST_SCHEMA } from './migrations.js';
import { transaction } from './transaction.js';

/** A database whose schema this server cannot serve (newer than it knows). */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  constructor(readonly found: number) {
    super(`the database's cr schema is version ${found}, newer than this cr knows (${NEWEST_SCHEMA}): upgrade cr on this machine to serve it`);
  }
}

/**
 * A database whose schema is older than this cr needs, opened without migrating
 * (`cr serve --no-migrate`, docs/shared-sandbox.md "Roles"): nothing is changed, and the
 * operator is told the step that is missing.
 */
export class SchemaTooOldError extends Error {
  override readonly name = 'SchemaTooOldError';
  constructor(
    readonly found: number,
    readonly location: string,
    /** Who changes nothing: `cr serve --no-migrate`, or a local command that only reads or edits records. */
    readonly opener: 'serve' | 'local' = 'serve',
  ) {
    super(
      opener === 'serve'
        ? `the database's cr schema is version ${found}, older than this cr needs (${NEWEST_SCHEMA}), and --no-migrate changes no schema: run cr local migrate --store ${location} first (as the role that owns the schema), then start the servers`
        : found === 0
          ? `the database ${location} holds no cr schema, and this command changes no schema: run cr local migrate --store ${location} (as the role that owns the schema), or cr local init / cr local copy --to to make a store there`
          : `the database's cr schema is version ${found}, older than this cr needs (${NEWEST_SCHEMA}), and this command changes no schema: run cr local migrate --store ${location} first (as the role that owns the schema)`,
    );
  }
}

/** The schema version of the database: 0 when cr never migrated it. Reads only. */
export async function schemaVersion(sql: Sql): Promise<number> {
  const [table] = await sql`SELECT to_regclass('cr_schema') IS NOT NULL AS present`;
  if (!table!.present) return 0;
  const [row] = await sql`SELECT coalesce(max(version), 0) AS v FROM cr_schema`;
  return Number(row!.v);
}

/** The migrations a database at `version` lacks, oldest first (what `cr local migrate --dry-run` lists). */
export function migrationsAfter(version: number): Migration[] {
  if (version > NEWEST_SCHEMA) throw new SchemaTooNewError(version);
  return MIGRATIONS.filter((m) => m.version > version);
}

/**
 * For `--no-migrate` and the local commands that are not migrate/init/copy/seed: the schema must
 * be the one this cr serves, neither older nor newer. Reads only.
 */
export async function checkSchema(sql: Sql, location: string, opener: 'serve' | 'local' = 'serve'): Promise<number> {
  const found = await schemaVersion(sql);
  if (found > NEWEST_SCHEMA) throw new SchemaTooNewError(found);
  if (found < NEWEST_SCHEMA) throw new SchemaTooOldError(found, location, opener);
  return found;
}

/**
 * Applies the migrations this database lacks, in one transaction under an advisory lock
 * (migrations.ts), so servers starting together wait for each other and apply each once. A
 * database already at this cr's version is only read: a role without the right to change the
 * schema (docs/shared-sandbox.md "Roles") passes here once the owner migrated.
 */
export async function migrate(sql: Sql): Promise<{ from: number; to: number; applied: Migration[] }> {
  const current = await schemaVersion(sql);
  if (current > NEWEST_SCHEMA) throw new SchemaTooNewError(current);
  if (current === NEWEST_SCHEMA) return { from: current, to: current, applied: [] };
  return transaction(sql, async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`CREATE TABLE IF NOT EXISTS cr_schema (version integer PRIMARY KEY, what text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
    const [row] = await tx`SELECT coalesce(max(version), 0) AS v FROM cr_schema`;
    const from = Number(row!.v);
    const applied = migrationsAfter(from);
    for (const m of applied) {
      await tx.unsafe(m.sql);
      await tx`INSERT INTO cr_schema (version, what) VALUES (${m.version}, ${m.what})`;
    }
    return { from, to: NEWEST_SCHEMA, applied };
  });
}
