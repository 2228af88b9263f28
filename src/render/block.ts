import type { IO } from '../io/streams.js';
import { oneLineCell } from './escape.js';
import type { Styles } from './styles.js';
import type { TableOptions } from './table.js';
import { cellText } from './cell.js';
import type { Column, View } from './view.js';
import { csvTableOf, type CsvTable } from './csv.js';

/**
 * One part of an output with its row type erased, so one output may hold tables of
 * different rows (finance: entities and invoices) or a drawing that is no table (the
 * visibility heat map). `table()` makes one from a View.
 */
export interface Block {
  title?: string;
  /** Terminal only, dimmed under the block. */
  footer?: string;
  /** Piped only, on standard error: the rows are one page of more (View.partial). */
  partial?: string;
  /**
   * The lines piped output gets, as cells (escaped onto one line by `writeTsv`); `s` is given
   * when colour was forced (FORCE_COLOR) and undefined otherwise.
   */
  tsv(io: IO, s: Styles | undefined): readonly (readonly unknown[])[];
  /** The terminal form, without title and footer. */
  draw(s: Styles, width: number, opts?: TableOptions): string | Promise<string>;
  /** `--csv`: the block as a CSV table, when it is one. */
  csv?(): CsvTable;
  /** `-q`: the ids of its rows. */
  ids?(): string[];
}

/** A TSV cell already escaped and styled (FORCE_COLOR): written as it is. */
class Ready {
  constructor(readonly text: string) {}
}

/**
 * A TSV cell: one line, no tab, no control character (docs/cli-contract.md "At a terminal"), and never
 * cut: piped output carries every character.
 */
const tsvCell = (v: unknown): string => (v instanceof Ready ? v.text : oneLineCell(cellText(v)));

/** A row's TSV cells: the plain value, styled only when colour was forced (FORCE_COLOR, docs/cli-contract.md). */
function tsvCells<T>(s: Styles | undefined, columns: readonly Column<T>[], row: T): unknown[] {
  return columns.map((c) => {
    const value = (c.plain ?? c.value)(row);
    return s && c.style ? new Ready(c.style(tsvCell(value), row, s)) : value;
  });
}

/** A View as a Block: a bordered table on a terminal, its rows as TSV when piped. */
export function table<T>(view: View<T>): Block {
  const tag = view.tsvTag === undefined ? [] : [view.tsvTag];
  return {
    title: view.title,
    footer: view.footer,
    partial: view.partial,
    tsv: (_io, s) => view.rows.map((row) => [...tag, ...tsvCells(s, view.columns, row)]),
    async draw(s, width, opts) {
      if (view.rows.length === 0 && view.empty) return s.dim(view.empty);
      const { drawTable } = await import('./table.js');
      const columns = view.columns.filter((c) => !c.tsvOnly);
      return drawTable({ columns, rows: [...view.rows, ...(view.totals ?? [])] }, s, width, undefined, view.keepIds ? { ...opts, shortIds: false } : opts);
    },
    csv: () => csvTableOf(view),
    ids: view.id ? () => view.rows.map(view.id!) : undefined,
  };
}

/** Piped output: each block's rows as tab-separated lines; a partial list says so on stderr. */
export async function writeTsv(io: IO, blocks: readonly Block[]): Promise<void> {
  const s = io.color ? (await import('./styles.js')).styles(true) : undefined;
  for (const block of blocks) {
    const rows = block.tsv(io, s);
    if (rows.length) io.out.write(rows.map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n');
    if (block.partial) io.err.write(block.partial + '\n');
  }
}
