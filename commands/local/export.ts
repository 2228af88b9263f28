import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { asCliError } from '../../src/local/errors.js';
import { storePathOf } from '../../src/local/store-path.js';

export const exportCommand = (ctx: Context) =>
  withExamples(
    new Command('export')
      .description("print a local store's data as fixtures (docs/fixtures.md), the format cr local seed reads")
      .option('--only <names>', 'only these collections, comma-separated (e.g. websites,social_posts)')
      .addOption(storeOption())
      .action((f: { store?: string; only?: string }) => exportData(ctx, f)),
    ['cr local export > fixtures.json', 'cr local export --only users,websites,social_posts --store ./ci-store.json'],
  );

/**
 * Reads the store without its lock (src/local/read-store.ts): the last acknowledged write,
 * whether or not a server holds the store, and on a read-only folder.
 */
export async function exportData(ctx: Context, o: { store?: string; only?: string }): Promise<void> {
  const [{ readStore }, { exportStore }, { checkOnly, FixtureError }] = await Promise.all([
    import('../../src/local/read-store.js'),
    import('../../src/server/ops/admin/store-ops.js'),
    import('../../src/server/ops/admin/fixtures.js'),
  ]);
  let only;
  try {
    only =
      o.only === undefined
        ? undefined
        : checkOnly(
            o.only
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          );
  } catch (err) {
    if (err instanceof FixtureError) throw new UsageError(`--only: ${err.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    throw err;
  }
  let data;
  try {
    data = await readStore(await storePathOf(ctx.env, o.store), { env: ctx.env });
  } catch (err) {
    throw await asCliError(err);
  }
  ctx.io.out.write(exportStore(data, only));
}
