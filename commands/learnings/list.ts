import { Command, Option } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { choice, completeWith, intArg, withExamples } from '../../src/cli/options.js';
import { requestSchemas } from '../../src/api/generated/request-schemas.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { Learning } from '../../src/api/schemas/intelligence.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';
import { formatPercent } from '../../src/render/format.js';

// The filter's values and the limit's bounds, from the endpoint table (src/api/schemas/intelligence.ts), without zod.
const { dimension_type, limit } = requestSchemas.listLearnings.query.properties;
const DIMENSION_TYPES = dimension_type.enum;
const LEARNINGS_MAX_LIMIT = limit.maximum;

export const listCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('list')
        .description('list confirmed learnings in API order (highest confidence first)')
        .addOption(
          completeWith(
            new Option('--type <type>', `only this dimension type (dimension_type): ${DIMENSION_TYPES.join(', ')}`).argParser(
              choice('--type', DIMENSION_TYPES),
            ),
            DIMENSION_TYPES,
          ),
        )
        .option('--limit <n>', `maximum number of learnings, 1-${LEARNINGS_MAX_LIMIT} (server default 50)`, intArg('--limit', 1, LEARNINGS_MAX_LIMIT))
        .action((f: { type?: string; limit?: number }) => list(ctx, f)),
      ['cr learnings list --type hook --limit 10', "cr learnings list --jq '.learnings[].summary'", 'cr learnings list --csv > learnings.csv'],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

export async function list(ctx: Context, f: { type?: string; limit?: number }): Promise<void> {
  const res = await (await ctx.api()).call(routes.listLearnings, {
    query: { ...websiteParam(ctx), dimension_type: f.type, limit: f.limit },
  });
  const { learnings, total } = res.data;
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw, items: (res.raw as { learnings: unknown[] }).learnings },
    {
      rows: learnings,
      id: (l) => l.id,
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (l: Learning) => l.id },
        // A ratio: `87%` at a terminal, the API's number piped.
        {
          header: 'CONF',
          kind: 'number',
          field: 'confidenceScore',
          value: (l) => formatPercent(l.confidenceScore),
          align: 'right',
          plain: (l) => l.confidenceScore,
        },
        { header: 'TYPE', kind: 'code', field: 'dimensionType', value: (l) => l.dimensionType },
        { header: 'VALUE', field: 'dimensionValue', value: (l) => l.dimensionValue },
        { header: 'CHANNEL', kind: 'code', field: 'channel', value: (l) => l.channel },
        { header: 'EVIDENCE', kind: 'number', field: 'evidenceCount', value: (l) => l.evidenceCount, align: 'right' },
        // Cut to what the terminal has left; the cap only bounds very wide terminals.
        { header: 'SUMMARY', field: 'summary', value: (l) => l.summary, max: 120 },
      ],
      footer: learnings.length < total ? `showing ${learnings.length} of ${total}; raise --limit for more` : undefined,
      partial: learnings.length < total ? `showing ${learnings.length} of ${total}; raise --limit for more` : undefined,
      empty: 'No confirmed learnings.',
    },
  );
}
