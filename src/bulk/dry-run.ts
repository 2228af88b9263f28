import type { Context } from '../cli/context.js';
import type { Column } from '../render/view.js';
import { styles } from '../render/styles.js';
import { escapeControls } from './escape.js';
import { dateColumn, shownTime } from '../render/dates.js';
import type { ShownTime } from '../render/dates.js';
import type { LoadedPlan } from './load-plan.js';
import type { PlanRow, RowResult } from './types.js';

interface Planned {
  row: PlanRow;
  action: 'send' | 'skip';
}

/** AT as in every table: local time with a hint on a terminal, as written piped (like the run's own table). */
const columns = (when: ShownTime): Column<Planned>[] => [
  { header: 'LINE', value: (p) => p.row.line, align: 'right' },
  { header: 'ID', value: (p) => p.row.id },
  { ...dateColumn('AT', (p: Planned) => p.row.wire, when, { time: true }), plain: (p) => escapeControls(p.row.wire) },
  { header: 'WEBSITE', value: (p) => p.row.websiteId ?? '' },
  { header: 'ACTION', value: (p) => p.action },
];

/**
 * `--dry-run`: the checked plan, one row each, with what a run would do (`send`, or `skip`
 * for a row the state file holds as scheduled at the same time). Sends nothing and needs
 * no key, like the single-post --dry-run.
 */
export async function printPlan(ctx: Context, plan: LoadedPlan, toSend: PlanRow[], skipped: RowResult[]): Promise<void> {
  const sending = new Set(toSend);
  const rows: Planned[] = plan.rows.map((row) => ({ row, action: sending.has(row) ? 'send' : 'skip' }));
  const { io } = ctx;
  if (ctx.globals.json) {
    for (const p of rows) {
      io.out.write(
        JSON.stringify({ line: p.row.line, id: p.row.id, at: p.row.wire, ...(p.row.websiteId ? { website_id: p.row.websiteId } : {}), action: p.action }) +
          '\n',
      );
    }
  } else if (!io.tty.out) {
    const cols = columns(shownTime(ctx.env, () => ctx.now()));
    if (rows.length) io.out.write(rows.map((p) => cols.map((c) => String((c.plain ?? c.value)(p) ?? '')).join('\t')).join('\n') + '\n');
  } else if (rows.length) {
    const { drawTable } = await import('../render/table.js');
    io.out.write(drawTable({ rows, columns: columns(shownTime(ctx.env, () => ctx.now())) }, styles(io.color), io.columns) + '\n');
  }
  const dup = plan.duplicates ? `, ${plan.duplicates} duplicate line(s) counted once` : '';
  ctx.notice(`dry run: ${toSend.length} to send, ${skipped.length} skipped (state file)${dup}; nothing was sent`);
}
