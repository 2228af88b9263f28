import type { Sql } from 'postgres';
import { MIGRATION_LOCK_KEY, MIGRATIONS, NEWEST_SCHEMA } from './migrations.js';

/** A database whose schema this server cannot serve (newer than it knows). */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  constructor(readonly found: number) {
    super(`the database's cr schema is version ${found}, newer than this cr knows (${NEWEST_SCHEMA}): upgrade cr on this machine to serve it`);
  }
}

/**
 * Applies the migrations this database lacks, in one transaction under an advisory lock
 * (migrations.ts), so servers starting together wait for each other and apply each once.
 */
export async function migrate(sql: Sql): Promise<{ from: number; to: number }> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`CREATE TABLE IF NOT EXISTS cr_schema (version integer PRIMARY KEY, what text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
    const [row] = await tx`SELECT coalesce(max(version), 0) AS v FROM cr_schema`;
    const from = Number(row!.v);
    if (from > NEWEST_SCHEMA) throw new SchemaTooNewError(from);
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO cr_schema (version, what) VALUES (${m.version}, ${m.what})`;
    }
    return { from, to: NEWEST_SCHEMA };
  });
}
