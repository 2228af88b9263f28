import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { intArg, withExamples } from '../../src/cli-kit.js';
import { LEARNINGS_MAX_LIMIT } from '../../src/api/vocabulary.js';
import { routes } from '../../src/api/routes.js';
import type { Learning } from '../../src/api/schemas/intelligence.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';
import { formatPercent } from '../../src/render/format.js';

export const listCommand = (ctx: Context) =>
  withExamples(
    new Command('list')
      .description('list confirmed learnings in API order (highest confidence first)')
      .option('--type <type>', 'only this dimension type (dimension_type), e.g. hook, angle, offer')
      .option('--limit <n>', `maximum number of learnings, 1-${LEARNINGS_MAX_LIMIT} (server default 50)`, intArg('--limit', 1, LEARNINGS_MAX_LIMIT))
      .action((f: { type?: string; limit?: number }) => list(ctx, f)),
    ['cr learnings list --type hook --limit 10', "cr learnings list --json | jq -r '.learnings[].summary'"],
  );

export async function list(ctx: Context, f: { type?: string; limit?: number }): Promise<void> {
  const res = await (await ctx.api()).call(routes.listLearnings, {
    query: { ...websiteParam(ctx), dimension_type: f.type, limit: f.limit },
  });
  const { learnings, total } = res.data;
  await render(ctx.io, { json: ctx.globals.json, data: res.raw }, {
    rows: learnings,
    columns: [
      { header: 'CONFIDENCE', value: (l: Learning) => formatPercent(l.confidenceScore), align: 'right' },
      { header: 'TYPE', value: (l) => l.dimensionType },
      { header: 'VALUE', value: (l) => l.dimensionValue },
      { header: 'CHANNEL', value: (l) => l.channel },
      { header: 'EVIDENCE', value: (l) => l.evidenceCount, align: 'right' },
      // Wrapped to what the terminal has left; the cap only bounds very wide terminals.
      { header: 'SUMMARY', value: (l) => l.summary, wrap: 120 },
    ],
    footer: learnings.length < total ? `showing ${learnings.length} of ${total}; raise --limit for more` : undefined,
    empty: 'No confirmed learnings.',
  });
}
