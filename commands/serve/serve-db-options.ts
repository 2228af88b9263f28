import type { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { intArg } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import type { DatabaseOpenOptions } from '../../src/server/open-for-serving.js';

/** Connections a server may keep for records (`--pool`); PostgreSQL's own default max_connections is 100. */
export const MAX_POOL = 1000;

/** The options of `cr serve` that only a PostgreSQL store takes (docs/shared-sandbox.md "Roles", "Connection settings"). */
export function addDatabaseOptions(cmd: Command): Command {
  return cmd
    .option('--no-migrate', 'postgres:// store: change no schema (a role with only SELECT/INSERT/UPDATE/DELETE); refuse a schema older than this cr needs')
    .option(
      '--pool <n>',
      `postgres:// store: connections for records (default 20; 1-${MAX_POOL}), plus half as many for rate-limit counts`,
      intArg('--pool', 1, MAX_POOL),
    );
}

/**
 * How `cr serve` opens a database, from its flags; refused (exit 2) on a JSON store file,
 * where neither means anything.
 */
export function databaseOpenOptions(ctx: Context, o: { migrate?: boolean; pool?: number }, isDatabase: boolean): DatabaseOpenOptions {
  if (!isDatabase && (o.migrate === false || o.pool !== undefined))
    throw new UsageError(`${o.migrate === false ? '--no-migrate' : '--pool'} applies to a postgres:// store only`, 'drop it, or serve --store postgres://…');
  return { env: ctx.env, pool: o.pool, schema: o.migrate === false ? 'check' : 'apply' };
}
