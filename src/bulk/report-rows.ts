import type { IO } from '../io/streams.js';
import type { Column } from '../render/view.js';
import { styles } from '../render/styles.js';
import { escapeControls } from './escape.js';
import { dateColumn } from '../render/dates.js';
import { safeJson } from '../render/safe-json.js';
import type { ShownTime } from '../render/dates.js';
import type { RowResult } from './types.js';

/** The row as one JSON object (docs/cli-contract.md: line, id, at, status, scheduledAt or error/code/exit). */
export function jsonOf(r: RowResult): Record<string, unknown> {
  const base = { line: r.row.line, id: r.row.id, at: r.row.wire, status: r.status, ...(r.retries ? { retries: r.retries } : {}) };
  if (r.status === 'scheduled' || r.status === 'skipped') return { ...base, scheduledAt: r.scheduledAt ?? r.row.wire };
  return { ...base, error: r.error ?? '', code: r.code ?? null, exit: r.exit ?? null };
}

/** One JSON line, safe on a terminal and still the same JSON (src/render/safe-json.ts). */
export const jsonLine = (r: RowResult) => safeJson(jsonOf(r));

const detail = (r: RowResult) =>
  r.status === 'scheduled' || r.status === 'skipped' ? (r.scheduledAt ?? r.row.wire) : `${r.error ?? ''}${r.code ? ` (${r.code})` : ''}`;

/**
 * The columns. AT is a date-time like every table's: local time with a hint on a terminal,
 * the value as written piped (docs/cli-contract.md "At a terminal"; the --wait countdown and
 * 429 hints say local time too).
 */
const columns = (when: ShownTime): Column<RowResult>[] => [
  // Line numbers, ids and times are never cut (docs/cli-contract.md "At a terminal"); only DETAIL is text.
  { header: 'LINE', kind: 'number', value: (r) => r.row.line, align: 'right' },
  { header: 'ID', kind: 'id', value: (r) => r.row.id },
  { ...dateColumn('AT', (r: RowResult) => r.row.wire, when, { time: true }), plain: (r) => escapeControls(r.row.wire) },
  {
    header: 'STATUS',
    kind: 'code',
    value: (r) => r.status,
    style: (t, r, s) => (r.status === 'scheduled' ? s.green(t) : r.status === 'skipped' ? s.dim(t) : r.status === 'failed' ? s.red(t) : s.yellow(t)),
  },
  { header: 'DETAIL', value: (r) => escapeControls(detail(r)), max: 60 },
];

/** TSV rows (off a terminal) or a table (on one), in file order, text escaped. */
export async function writeRows(io: IO, results: readonly RowResult[], when: ShownTime): Promise<void> {
  const rows = [...results].sort((a, b) => a.row.line - b.row.line);
  const cols = columns(when);
  if (!io.tty.out) {
    if (rows.length) io.out.write(rows.map((r) => cols.map((c) => String((c.plain ?? c.value)(r) ?? '').replace(/\t/g, ' ')).join('\t')).join('\n') + '\n');
    return;
  }
  if (rows.length === 0) return;
  const { drawTable } = await import('../render/table.js');
  // Whole ids: the report is what a retry is made from.
  io.out.write(drawTable({ rows, columns: cols }, styles(io.color), io.columns, undefined, { shortIds: false }) + '\n');
}
