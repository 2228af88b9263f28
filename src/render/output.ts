import type { IO } from '../io/streams.js';
import { styles, type Styles } from './styles.js';

/** One column of a table: how to get the cell text, and optionally how to colour it. */
export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  align?: 'left' | 'right';
  /** Decoration: on a terminal, or on piped TSV only when FORCE_COLOR asks for colour. */
  style?: (text: string, row: T, s: Styles) => string;
  /** Wrap long text to this many characters on a terminal. */
  wrap?: number;
}

export interface View<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  title?: string;
  /** Extra lines under the table, terminal only (e.g. "showing 1-50 of 120"). */
  footer?: string;
  /** Message shown on a terminal instead of an empty table. */
  empty?: string;
}

export const cellText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** TSV cells must stay on one line and never contain the separator. */
const tsvCell = (v: unknown) => cellText(v).replace(/[\t\r\n]+/g, ' ');

export function writeJson(io: IO, data: unknown): void {
  io.out.write(JSON.stringify(data, null, 2) + '\n');
}

/** A row's TSV cells: plain, unless colour was forced (FORCE_COLOR, cli.md): then styled. */
export function tsvCells<T>(io: IO, columns: readonly Column<T>[], row: T): unknown[] {
  const s = io.color ? styles(true) : undefined;
  return columns.map((c) => (s && c.style ? c.style(tsvCell(c.value(row)), row, s) : c.value(row)));
}

export function writeTsv(io: IO, rows: readonly (readonly unknown[])[]): void {
  if (rows.length) io.out.write(rows.map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n');
}

/**
 * The one output decision (cli.md "Output"): `--json` prints the API's data exactly;
 * off a terminal the same rows as plain TSV (coloured only when FORCE_COLOR says so); on
 * a terminal a table with colour.
 */
export async function render<T>(io: IO, opts: { json: boolean; data: unknown }, views: View<T> | View<T>[]): Promise<void> {
  if (opts.json) return writeJson(io, opts.data);
  const list = Array.isArray(views) ? views : [views];
  if (!io.tty.out) {
    for (const view of list) writeTsv(io, view.rows.map((row) => tsvCells(io, view.columns, row)));
    return;
  }
  const { drawTable } = await import('./table.js');
  const s = styles(io.color);
  const parts: string[] = [];
  for (const view of list) {
    let block = view.title ? s.bold(view.title) + '\n' : '';
    block += view.rows.length === 0 && view.empty ? s.dim(view.empty) : drawTable(view, s, io.columns);
    if (view.footer) block += '\n' + s.dim(view.footer);
    parts.push(block);
  }
  io.out.write(parts.join('\n\n') + '\n');
}
