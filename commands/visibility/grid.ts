import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { Visibility } from '../../src/api/schemas/visibility.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';
import { formatDateHint } from '../../src/render/format.js';
import { shownTime } from '../../src/render/dates.js';
import { oneLineCell } from '../../src/render/escape.js';
import { EXIT, LocalError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/client.js';
import { arrangeGrid, drawGrid, gridStats, legend } from '../../src/render/heatmap.js';
import type { Styles } from '../../src/render/styles.js';
import type { CellValue } from '../../src/render/view.js';

export const gridCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('grid')
        .description('the latest 9x9 rank grid per keyword: a heat map on a terminal, one TSV row per point when piped')
        .option('--keyword <keyword>', 'only this tracked keyword (exact, case-insensitive)')
        .action((f: { keyword?: string }) => grid(ctx, f)),
      [
        'cr visibility grid --keyword "plumber near me"',
        "cr visibility grid | awk -F'\\t' '$6 != \"\" && $6 <= 3' | wc -l",
        'cr visibility grid --csv > grid.csv',
      ],
    ),
    { jq: true, csv: true },
  );

export async function grid(ctx: Context, f: { keyword?: string }): Promise<void> {
  const client = await ctx.api();
  const res = await client.call(routes.getGbpVisibility, { query: { ...websiteParam(ctx), keyword: f.keyword } });
  if (f.keyword !== undefined && res.data.keywords.length === 0) await refuseUntracked(ctx, client, f.keyword);
  const when = shownTime(ctx.env, ctx.now, res.response.headers);
  // Not a table: heat maps on a terminal, one TSV line per grid point when piped.
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw },
    {
      tsv: () => tsvRows(res.data),
      draw: (s, width) => heatMaps(s, res.data, when.now, width),
      csv: () => ({
        // JSON field names; row and col are the point's place in the grid (1-based, row 1 north).
        header: ['keyword', 'row', 'col', 'lat', 'lng', 'rank'],
        rows: tsvRows(res.data).map((r) => r.map((c) => (c === '' ? null : c)) as CellValue[]),
      }),
    },
  );
}

/**
 * A --keyword the latest scan does not track is an error a script can see (exit 5, not
 * found), naming the tracked keywords; an empty answer with exit 0 would read as "no
 * ranks". With no scan at all, there is nothing to name: the empty grid says so.
 */
async function refuseUntracked(ctx: Context, client: ApiClient, keyword: string): Promise<void> {
  const all = await client.call(routes.getGbpVisibility, { query: websiteParam(ctx) });
  const tracked = all.data.keywords.map((k) => `"${k.keyword}"`);
  if (tracked.length === 0) return;
  throw new LocalError(`keyword "${keyword}" is not tracked; tracked keywords: ${tracked.join(', ')}`, EXIT.notFound, { code: 'KEYWORD_NOT_TRACKED' });
}

/** keyword, row, col (1-based, row 1 = north, col 1 = west), lat, lng, rank ('' = not ranking). */
export function tsvRows(data: Visibility): unknown[][] {
  return data.keywords.flatMap((k) =>
    arrangeGrid(k.gridPoints).flatMap((row) => row.map((c) => [k.keyword, c.row + 1, c.col + 1, c.lat, c.lng, c.rank ?? ''])),
  );
}

function heatMaps(s: Styles, data: Visibility, now: Date, width: number): string {
  const scan = data.scanDate ? `scan ${formatDateHint(data.scanDate, now)}` : 'no scan yet';
  if (data.keywords.length === 0) return s.dim(`No visibility data (${scan}).`);
  const blocks = data.keywords.map((k) => {
    const st = gridStats(k.gridPoints);
    const avg =
      st.averageRank === null ? 'not ranking anywhere' : `average rank ${st.averageRank.toFixed(1)} (ranking at ${st.ranking} of ${st.points} points)`;
    const top3 = `top 3 at ${Math.round(st.top3Share * 100)}% of points (${st.top3} of ${st.points})`;
    return [
      `${s.bold(oneLineCell(k.keyword))}  ${s.dim(scan)}`,
      ...drawGrid(arrangeGrid(k.gridPoints), s),
      avg.length + top3.length + 2 <= width ? `${avg}; ${top3}` : `${avg};\n${top3}`,
    ].join('\n');
  });
  return [...blocks, legend(s, width)].join('\n\n');
}
