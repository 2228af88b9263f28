import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption, vocabularyOption } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { asCliError } from '../../src/local/errors.js';
import { storePathOf } from '../../src/local/store-path.js';
import { render } from '../../src/render/output.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';
import { POST_STATUSES } from '../../src/api/schemas/social.js';
import type { SocialPostRecord } from '../../src/server/store/schema.js';
import { LOCAL_ONLY } from './websites.js';

interface PostsOptions {
  store?: string;
  status?: string;
}

export const postsCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('posts')
        .description('list the social posts a local store holds (--website ID for one website)')
        .addHelpText('after', `\n${LOCAL_ONLY}`)
        .addOption(vocabularyOption('--status <status>', 'only posts in this state', POST_STATUSES))
        .addOption(storeOption())
        .action((f: PostsOptions) => posts(ctx, f)),
      ['cr local posts --status draft', 'cr local posts --status draft -q > ids.txt', "cr local posts --json --jq '.[] | select(.scheduledAt != null) | .id'"],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

export async function posts(ctx: Context, o: PostsOptions): Promise<void> {
  const { readStore } = await import('../../src/local/read-store.js');
  let rows: SocialPostRecord[];
  try {
    rows = (await readStore(await storePathOf(ctx.env, o.store), { env: ctx.env })).social_posts;
  } catch (err) {
    throw await asCliError(err);
  }
  const website = ctx.globals.website;
  rows = rows.filter((p) => (!o.status || p.status === o.status) && (!website || p.websiteId === website));
  // No server answered: the hint clock is the local one.
  const when = shownTime(ctx.env, ctx.now);
  await render(
    ctx.io,
    { ...ctx.globals, data: rows, items: rows },
    {
      rows,
      id: (p) => String(p.id),
      columns: [
        { header: 'ID', kind: 'id', value: (p) => String(p.id) },
        { header: 'WEBSITE', kind: 'id', value: (p) => String(p.websiteId) },
        { header: 'STATUS', kind: 'code', value: (p) => String(p.status) },
        dateColumn('SCHEDULED', (p: SocialPostRecord) => p.scheduledAt, when, { time: true }),
        // Store text as any cell has it (src/render/escape.ts oneLineCell): line breaks become a space, separators and controls show escaped.
        { header: 'CONTENT', value: (p) => String(p.content), max: 50 },
      ],
      // The store's own field names and full values (as --json prints them).
      csvColumns: (['id', 'websiteId', 'status', 'scheduledAt', 'content', 'createdAt', 'updatedAt'] as const).map((field) => ({
        header: field,
        value: (p: SocialPostRecord) => p[field] ?? null,
      })),
      empty: 'No posts.',
    },
  );
}
