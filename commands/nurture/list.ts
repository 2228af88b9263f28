import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { intArg, withExamples } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';
import { routes } from '../../src/api/routes.js';
import type { QueryOf } from '../../src/api/io-types.js';
import { NURTURE_MAX_LIMIT } from '../../src/api/vocabulary.js';
import type { NurtureSequence } from '../../src/api/schemas/nurture.js';
import type { ApiClient } from '../../src/http/client.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';

interface Flags {
  status?: string;
  limit?: number;
  offset?: number;
  all?: boolean;
}

export const listCommand = (ctx: Context) =>
  withExamples(
    new Command('list')
      .description('list nurture sequences, most recently updated first (one page, or every page with --all)')
      .option('--status <status>', 'only sequences with this status, e.g. draft, active, paused, archived')
      .option('--limit <n>', `page size, 1-${NURTURE_MAX_LIMIT} (server default 50)`, intArg('--limit', 1))
      .option('--offset <n>', 'number of sequences to skip', intArg('--offset', 0))
      .option('--all', `walk every page from --offset on (--limit per request, else ${NURTURE_MAX_LIMIT}) and print one list`)
      .action((f: Flags) => list(ctx, f)),
    ['cr nurture list --status active --limit 20', "cr nurture list --all --json | jq '.total'"],
  );

export async function list(ctx: Context, f: Flags): Promise<void> {
  if (f.limit !== undefined && f.limit > NURTURE_MAX_LIMIT) throw new UsageError(`--limit must be at most ${NURTURE_MAX_LIMIT}, got ${f.limit}`);
  const client = await ctx.api();
  const base = { ...websiteParam(ctx), status: f.status };
  let sequences: NurtureSequence[];
  let total: number;
  let offset: number;
  let data: unknown;
  let headers: Record<string, string> | undefined;
  if (f.all) {
    offset = f.offset ?? 0;
    ({ sequences, total } = await fetchAll(client, base, f.limit ?? NURTURE_MAX_LIMIT, offset));
    // cli.md: `--all --json` prints one combined object, not the pages.
    data = { sequences, total };
  } else {
    const res = await client.call(routes.listNurtureSequences, { query: { ...base, limit: f.limit, offset: f.offset } });
    ({ sequences, total, offset } = res.data);
    data = res.raw;
    headers = res.response.headers;
  }
  const when = shownTime(ctx.env, ctx.now, headers);
  await render(ctx.io, { json: ctx.globals.json, data }, {
    rows: sequences,
    columns: [
      { header: 'ID', kind: 'id', value: (s: NurtureSequence) => s.contentId },
      { header: 'TITLE', value: (s) => s.title, max: 60 },
      { header: 'STATUS', kind: 'code', value: (s) => s.status },
      { header: 'STEPS', kind: 'number', value: (s) => s.stepCount, align: 'right' },
      dateColumn('UPDATED', (s: NurtureSequence) => s.updatedAt, when, { time: true }),
    ],
    footer: sequences.length ? `showing ${offset + 1}-${offset + sequences.length} of ${total}` : undefined,
    // Piped, a page of a longer list says so where a script's operator will see it.
    partial: sequences.length && offset + sequences.length < total ? `showing ${sequences.length} of ${total}; --all for every page` : undefined,
    empty: total > 0 ? `No sequences at offset ${offset} (total ${total}).` : 'No nurture sequences.',
  });
}

/**
 * Every page from `start`, `pageSize` at a time, until `total` is reached. An empty page
 * ends the walk too, so a shrinking list cannot loop forever. The raw items are kept so
 * that --json carries every field the server sent.
 */
async function fetchAll(client: ApiClient, base: QueryOf<'listNurtureSequences'>, pageSize: number, start: number): Promise<{ sequences: NurtureSequence[]; total: number }> {
  const sequences: NurtureSequence[] = [];
  let total = 0;
  for (let offset = start; ; ) {
    const res = await client.call(routes.listNurtureSequences, { query: { ...base, limit: pageSize, offset } });
    const page = (res.raw as { sequences: NurtureSequence[] }).sequences;
    total = res.data.total;
    sequences.push(...page);
    offset += page.length;
    if (page.length === 0 || offset >= total) break;
  }
  return { sequences, total };
}
