import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { collect, vocabularyOption, withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { BodyOf } from '../../src/api/io-types.js';
import { POLL_INTERVALS, SOURCE_TYPES, type SourceType } from '../../src/api/listener-rules.js';
import type { ContentListener } from '../../src/api/schemas/listeners.js';
import { printDryRun } from '../../src/cli/dry-run.js';
import { websiteParam } from '../../src/http/request-params.js';
import { buildQueryConfig, checkQueryConfig } from '../../src/cli/listener-query.js';
import { render } from '../../src/render/output.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';

interface Flags {
  name: string;
  source: SourceType;
  query?: string[];
  queryJson?: string;
  interval?: string;
  dryRun?: boolean;
}

export const createCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('create')
        .description('create a content listener; the source-specific query keys are checked before sending')
        .requiredOption('--name <name>', 'human-readable label')
        .addOption(vocabularyOption('--source <type>', 'external source', SOURCE_TYPES).makeOptionMandatory())
        .option('--query <key=value>', 'a query_config entry (repeat; a repeated key builds an array; keywords is always an array)', collect)
        .option('--query-json <json>', 'query_config as a JSON object (--query entries win)')
        .addOption(vocabularyOption('--interval <interval>', 'poll interval (server default 24h)', POLL_INTERVALS))
        .option('--dry-run', 'print the request and send nothing')
        .action((f: Flags) => create(ctx, f)),
      [
        'cr listeners create --website 5f0c2a8e-7d41-4b6a-9c3e-2f8b1d6a4e90 --name "Node subreddit" --source reddit --query subreddit=node --interval 6h',
        'cr listeners create --name "Launch news" --source google_news --query keywords=acme --query keywords="acme launch" --dry-run',
      ],
    ),
    { jq: true, csv: true, quiet: true },
  );

export async function create(ctx: Context, f: Flags): Promise<void> {
  const queryConfig = buildQueryConfig(f.query ?? [], f.queryJson);
  checkQueryConfig(f.source, queryConfig);
  const body: BodyOf<'createContentListener'> = { name: f.name, source_type: f.source, query_config: queryConfig };
  if (f.interval) body.poll_interval = f.interval;
  const ep = routes.createContentListener;
  // website_id travels in the query string, as docs/api-decisions.md declares for this endpoint.
  const input = { query: websiteParam(ctx), body };
  if (f.dryRun) return printDryRun(ctx, ep, input);
  const res = await (await ctx.api()).call(ep, input);
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw },
    {
      rows: [res.data],
      // The record just made or changed: its id is what the next command takes, whole at any width.
      keepIds: true,
      id: (l) => l.id,
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (l: ContentListener) => l.id },
        { header: 'NAME', name: true, field: 'name', value: (l) => l.name },
        { header: 'SOURCE', kind: 'code', field: 'sourceType', value: (l) => l.sourceType },
        { header: 'QUERY', field: 'queryConfig', value: (l) => JSON.stringify(l.queryConfig) },
        { header: 'INTERVAL', kind: 'code', field: 'pollInterval', value: (l) => l.pollInterval },
        { header: 'ENABLED', kind: 'code', field: 'enabled', value: (l) => (l.enabled ? 'yes' : 'no'), plain: (l) => l.enabled },
        {
          ...dateColumn('NEXT POLL', (l: ContentListener) => l.nextPollAt, shownTime(ctx.env, ctx.now, res.response.headers), { time: true }),
          field: 'nextPollAt',
        },
      ],
    },
  );
}
