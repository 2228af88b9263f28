import { Command, Option } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { choice, completeWith, intArg, withExamples } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { routes } from '../../src/api/routes.js';
import type { QueryOf } from '../../src/api/io-types.js';
import { requestSchemas } from '../../src/api/generated/request-schemas.js';
import type { NurtureSequence } from '../../src/api/schemas/nurture.js';
import type { ApiClient } from '../../src/http/client.js';
import { walkPages } from '../../src/http/pages.js';
import { websiteParam } from '../../src/http/request-params.js';
import { scriptable } from '../../src/output/flags.js';
import { render } from '../../src/render/output.js';
import { paged } from '../../src/io/pager.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';
import type { ShownTime } from '../../src/render/dates.js';
import type { Column } from '../../src/render/view.js';
import { streamPages } from './stream.js';

// The filter's values and the largest page, from the endpoint table (src/api/schemas/nurture.ts), without zod.
const { status, limit } = requestSchemas.listNurtureSequences.query.properties;
const NURTURE_STATUSES = status.enum;
const NURTURE_MAX_LIMIT = limit.maximum;

interface Flags {
  status?: string;
  limit?: number;
  offset?: number;
  all?: boolean;
  /** commander's --no-pager. */
  pager?: boolean;
}

export const listCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('list')
        .description('list nurture sequences, most recently updated first (one page, or every page with --all)')
        .addOption(
          completeWith(
            new Option('--status <status>', `only sequences with this status: ${NURTURE_STATUSES.join(', ')}`).argParser(choice('--status', NURTURE_STATUSES)),
            NURTURE_STATUSES,
          ),
        )
        .option('--limit <n>', `page size, 1-${NURTURE_MAX_LIMIT} (server default 50)`, intArg('--limit', 1))
        .option('--offset <n>', 'number of sequences to skip', intArg('--offset', 0))
        .option('--all', `walk every page from --offset on (--limit per request, else ${NURTURE_MAX_LIMIT}) and print one list`)
        .option('--no-pager', 'with --all at a terminal: print directly, not through $CR_PAGER / $PAGER / less -FRX')
        .action((f: Flags) => list(ctx, f)),
      [
        'cr nurture list --status active --limit 20',
        "cr nurture list --all --jq '.total'",
        'cr nurture list --all --jsonl > sequences.jsonl',
        'cr nurture list --status draft -q | xargs -n1 echo',
      ],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

/** The table's columns; `--csv` takes the full update time. */
export const nurtureColumns = (when: ShownTime): Column<NurtureSequence>[] => [
  { header: 'ID', kind: 'id', field: 'contentId', value: (s) => s.contentId },
  { header: 'TITLE', name: true, field: 'title', value: (s) => s.title },
  { header: 'STATUS', kind: 'code', field: 'status', value: (s) => s.status },
  { header: 'STEPS', kind: 'number', field: 'stepCount', value: (s) => s.stepCount, align: 'right' },
  { ...dateColumn('UPDATED', (s: NurtureSequence) => s.updatedAt, when, { time: true, past: true }), field: 'updatedAt' },
];

export async function list(ctx: Context, f: Flags): Promise<void> {
  // Every page at a terminal goes through the pager, as gh does (docs/output.md "Paging").
  if (f.all) return paged(ctx.io, f.pager === false, (io) => listTo(Object.assign(Object.create(ctx) as Context, { io }), f));
  return listTo(ctx, f);
}

async function listTo(ctx: Context, f: Flags): Promise<void> {
  if (f.limit !== undefined && f.limit > NURTURE_MAX_LIMIT) throw new UsageError(`--limit must be at most ${NURTURE_MAX_LIMIT}, got ${f.limit}`);
  const client = await ctx.api();
  const base = { ...websiteParam(ctx), status: f.status };
  const g = ctx.globals;
  if (f.all && (g.jsonl || g.csv || g.quiet)) {
    // Line formats stream: each page is written before the next is asked for (docs/cli-contract.md "For scripts").
    return streamPages(
      ctx,
      pagesOf(client, base, f.limit ?? NURTURE_MAX_LIMIT, f.offset ?? 0),
      nurtureColumns(shownTime(ctx.env, ctx.now)),
      (s) => s.contentId,
    );
  }
  let sequences: NurtureSequence[];
  let total: number;
  let offset: number;
  let data: unknown;
  let headers: Record<string, string> | undefined;
  if (f.all) {
    offset = f.offset ?? 0;
    ({ sequences, total } = await fetchAll(client, base, f.limit ?? NURTURE_MAX_LIMIT, offset));
    // docs/cli-contract.md: `--all --json` prints one combined object, not the pages.
    data = { sequences, total };
  } else {
    const res = await client.call(routes.listNurtureSequences, { query: { ...base, limit: f.limit, offset: f.offset } });
    ({ sequences, total, offset } = res.data);
    data = res.raw;
    headers = res.response.headers;
  }
  await render(
    ctx.io,
    { ...g, data, items: sequences },
    {
      rows: sequences,
      columns: nurtureColumns(shownTime(ctx.env, ctx.now, headers)),
      id: (s) => s.contentId,
      footer: sequences.length ? `showing ${offset + 1}-${offset + sequences.length} of ${total}` : undefined,
      // Piped, a page of a longer list says so where a script's operator will see it.
      partial: sequences.length && offset + sequences.length < total ? `showing ${sequences.length} of ${total}; --all for every page` : undefined,
      empty: total > 0 ? `No sequences at offset ${offset} (total ${total}).` : 'No nurture sequences.',
    },
  );
}

/** The pages from `start`, `pageSize` at a time; raw items, so every field the server sent is kept. */
function pagesOf(client: ApiClient, base: QueryOf<'listNurtureSequences'>, pageSize: number, start: number) {
  return walkPages<NurtureSequence>(
    async (offset) => {
      const res = await client.call(routes.listNurtureSequences, { query: { ...base, limit: pageSize, offset } });
      return { items: (res.raw as { sequences: NurtureSequence[] }).sequences, total: res.data.total };
    },
    start,
    pageSize,
  );
}

/** Every page, gathered for the outputs that need the whole list (the table, --json, --jq). */
async function fetchAll(
  client: ApiClient,
  base: QueryOf<'listNurtureSequences'>,
  pageSize: number,
  start: number,
): Promise<{ sequences: NurtureSequence[]; total: number }> {
  const sequences: NurtureSequence[] = [];
  let total = 0;
  for await (const page of pagesOf(client, base, pageSize, start)) {
    sequences.push(...page.items);
    total = page.total ?? total;
  }
  return { sequences, total };
}
