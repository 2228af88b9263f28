import { Command, Option } from 'commander';
import type { Context } from '../../src/context.js';
import { choice, completeWith, withExamples } from '../../src/cli-kit.js';
import { routes } from '../../src/api/routes.js';
import { requestSchemas } from '../../src/api/generated/request-schemas.js';
import type { NurtureCount } from '../../src/api/schemas/nurture.js';
import { websiteParam } from '../../src/http/request-params.js';
import { scriptable } from '../../src/output/flags.js';
import { render } from '../../src/render/output.js';

// The filter's values, from the endpoint table (src/api/schemas/nurture.ts), without zod.
const STATUSES = requestSchemas.countNurtureSequences.query.properties.status.enum;

export const countCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('count')
        .description('count nurture sequences, optionally of one status')
        .addOption(completeWith(new Option('--status <status>', `only this status: ${STATUSES.join(', ')}`).argParser(choice('--status', STATUSES)), STATUSES))
        .action((f: { status?: string }) => count(ctx, f)),
      ['cr nurture count --status active'],
    ),
    { jq: true, quiet: true },
  );

export async function count(ctx: Context, f: { status?: string }): Promise<void> {
  const res = await (await ctx.api()).call(routes.countNurtureSequences, { query: { ...websiteParam(ctx), status: f.status } });
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw },
    { rows: [res.data], columns: [{ header: 'TOTAL', kind: 'number', field: 'total', value: (c: NurtureCount) => c.total, align: 'right' }] },
  );
}
