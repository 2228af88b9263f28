import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { LocalError, UsageError } from '../../src/errors.js';
import { storePathOf } from '../../src/local/store-path.js';
import { writeJson } from '../../src/render/json.js';
import { escapeControls } from '../../src/render/escape.js';
import type { ResetCounts, ResetScope } from '../../src/server/ops/admin/reset.js';

interface ResetOptions {
  allData?: boolean;
  yes?: boolean;
  store?: string;
}

export const resetCommand = (ctx: Context) =>
  withExamples(
    new Command('reset')
      .description("empty one website's records (--website ID) or every record but the keys (--all-data); works while cr serve holds the store")
      .option('--all-data', 'remove every record but the keys and the users, agencies and websites they need')
      .option('--yes', 'do not ask for confirmation (needed off a terminal)')
      .addOption(storeOption())
      .action((f: ResetOptions) => reset(ctx, f)),
    [
      'cr local reset --website 3f1c9b2e-5a47-4d8c-b6e1-7a0f2c9d8e31 --yes',
      'cr local reset --all-data --yes --store ./ci-store.json',
      'cr local reset --all-data --yes --json --store postgres://cr@127.0.0.1/sandbox',
    ],
  );

/** `social_posts 3, learnings 1` */
const countsText = (c: ResetCounts) =>
  Object.entries(c.removed)
    .map(([collection, n]) => `${collection} ${n}`)
    .join(', ') || 'no records';

export async function reset(ctx: Context, o: ResetOptions): Promise<void> {
  const website = ctx.globals.website;
  if (!website === !o.allData) throw new UsageError('Pass exactly one of --website ID or --all-data');
  const scope: ResetScope = website ? { websiteId: website } : { allData: true };
  const storePath = await storePathOf(ctx.env, o.store);
  const { redactUrl } = await import('../../src/config/store-url.js');
  const where = escapeControls(redactUrl(storePath));
  const what = website ? `every record of website ${escapeControls(website)}` : 'every record but the API keys';
  if (!o.yes) {
    const answer = await ctx.prompt.input(`Remove ${what} from ${where}? Type yes to go on`, { flag: '--yes' });
    if (answer.trim().toLowerCase() !== 'yes') throw new LocalError('Not confirmed; nothing was removed', 1, { code: 'NOT_CONFIRMED' });
  }
  const [{ administer }, { resetStore, ResetError }] = await Promise.all([
    import('../../src/local/administer.js'),
    import('../../src/server/ops/admin/reset.js'),
  ]);
  let counts: ResetCounts;
  try {
    counts = await administer(
      storePath,
      {
        offline: (store) => resetStore(store, scope),
        online: (client) => client.call<ResetCounts>('POST', '/reset', website ? { website_id: website } : { all_data: true }),
      },
      ctx.env,
    );
  } catch (err) {
    if (err instanceof ResetError) throw new UsageError(err.message, 'cr local websites lists the websites of the store');
    throw err;
  }
  if (ctx.globals.json) writeJson(ctx.io, counts);
  const windows =
    counts.rate_windows === 'all' ? 'every rate-limit window' : `the rate-limit windows of ${counts.rate_windows} key${counts.rate_windows === 1 ? '' : 's'}`;
  ctx.notice(`Reset ${where}: removed ${countsText(counts)}; forgot ${windows}.`);
}
