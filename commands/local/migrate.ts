import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { intArg, storeOption, withExamples } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { MAX_RATE_LIMIT } from '../../src/api/vocabulary.js';
import { asCliError } from '../../src/local/errors.js';
import { writeJson } from '../../src/render/json.js';
import type { MigrateReport } from '../../src/server/store-pg/migrate-database.js';

interface MigrateOptions {
  store?: string;
  dryRun?: boolean;
  rateLimit?: number;
}

/**
 * `cr local migrate --store postgres://…` (docs/shared-sandbox.md "Roles"): the schema step on
 * its own, run by the role that owns the schema, so that servers can run with `--no-migrate`
 * as a role that only reads and writes rows.
 */
export const migrateCommand = (ctx: Context) =>
  withExamples(
    new Command('migrate')
      .description("apply a PostgreSQL store's schema migrations (as the role that owns the schema); --dry-run lists them and changes nothing")
      .addOption(storeOption())
      .option('--dry-run', 'list the migrations (and with --verbose their SQL) that would run; change nothing')
      .option('--rate-limit <n>', 'set the requests per key per hour that every server of this database counts with', intArg('--rate-limit', 1, MAX_RATE_LIMIT))
      .action((f: MigrateOptions) => run(ctx, f)),
    [
      'cr local migrate --store postgres://cr_owner@db.internal/cr_sandbox --dry-run',
      'PGPASSFILE=~/.pgpass-cr cr local migrate --store postgres://cr_owner@db.internal/cr_sandbox --rate-limit 500',
    ],
  );

async function run(ctx: Context, o: MigrateOptions): Promise<void> {
  const [{ defaultStorePath }, { isDatabaseUrl }] = await Promise.all([import('../../src/server/serve.js'), import('../../src/config/store-url.js')]);
  const store = o.store ?? defaultStorePath(ctx.env);
  if (!isDatabaseUrl(store))
    throw new UsageError(
      'cr local migrate applies to a postgres:// store',
      'a JSON store file needs no migration: cr serve and the cr local commands read it as it is',
    );
  const { migrateDatabase } = await import('../../src/server/store-pg/migrate-database.js');
  let report: MigrateReport;
  try {
    report = await migrateDatabase(store, { env: ctx.env, notice: (line) => ctx.notice(line), dryRun: Boolean(o.dryRun), rateLimit: o.rateLimit });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw await asCliError(err);
  }
  if (ctx.globals.json) return writeJson(ctx.io, report);
  ctx.io.out.write(describe(report, ctx.globals.verbose));
}

/** The report in words: the versions, each migration (its SQL with --verbose), the rate limit. */
function describe(r: MigrateReport, verbose: boolean): string {
  const lines: string[] = [];
  const verb = r.dryRun ? 'would apply' : 'applied';
  if (r.migrations.length === 0) lines.push(`${r.store}: schema version ${r.from}, up to date: nothing to apply`);
  else lines.push(`${r.store}: schema version ${r.from} → ${r.to}; ${verb} ${r.migrations.length} migration${r.migrations.length === 1 ? '' : 's'}:`);
  for (const m of r.migrations) {
    lines.push(`  ${m.version}  ${m.what}`);
    if (verbose) lines.push(...m.sql.split('\n').map((l) => `      ${l}`));
  }
  const { before, after } = r.rateLimit;
  if (after !== null && after !== before)
    lines.push(
      `rate limit: ${after} requests a key an hour${r.dryRun ? ' would be set' : ' set'}${before === null ? '' : ` (was ${before})`}; restart the servers to count with it`,
    );
  else if (after !== null) lines.push(`rate limit: ${after} requests a key an hour`);
  if (!r.dryRun && r.migrations.length > 0) lines.push('now restart the servers with this cr (docs/shared-sandbox.md "Upgrading")');
  return `${lines.join('\n')}\n`;
}
