import type { Context } from '../../src/cli/context.js';
import type { Page } from '../../src/http/pages.js';
import { csvTableOf } from '../../src/render/csv.js';
import { writeJsonl } from '../../src/render/jsonl.js';
import { writeIds } from '../../src/render/quiet.js';
import type { Column } from '../../src/render/view.js';

/**
 * `--all` with a line format: each page goes out as it arrives and is then let go, so
 * memory stays flat however many pages (docs/cli-contract.md "For scripts"). CSV writes its header once,
 * before the first page's rows (even when there are none, as a one-page --csv does).
 */
export async function streamPages<T>(ctx: Context, pages: AsyncIterable<Page<T>>, columns: readonly Column<T>[], id: (row: T) => string): Promise<void> {
  const g = ctx.globals;
  let first = true;
  const { writeCsv } = g.csv ? await import('../../src/render/csv.js') : { writeCsv: undefined };
  for await (const page of pages) {
    if (g.jsonl) writeJsonl(ctx.io, page.items);
    else if (g.quiet) writeIds(ctx.io, page.items.map(id));
    else if (writeCsv) await writeCsv(ctx.io, csvTableOf({ rows: page.items, columns }), { header: first && g.headers !== false, safe: g.csvSafe });
    first = false;
  }
}
