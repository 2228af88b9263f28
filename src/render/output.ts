import type { IO } from '../io/streams.js';
import { writeJson } from './json.js';
import { cellText, styles, type Styles } from './styles.js';
import type { Column, View } from './view.js';
import { csvTableOf, type CsvTable } from './csv.js';
import { isScripted, renderScript, type RenderOptions } from '../output/script.js';

/**
 * One part of an output with its row type erased, so one output may hold tables of
 * different rows (finance: entities and invoices) or a drawing that is no table (the
 * visibility heat map). `table()` makes one from a View.
 */
export interface Block {
  title?: string;
  /** Terminal only, dimmed under the block. */
  footer?: string;
  /** The lines piped output gets, as cells (cleaned of tabs and newlines on the way out). */
  tsv(io: IO): readonly (readonly unknown[])[];
  /** The terminal form, without title and footer. */
  draw(s: Styles, width: number): string | Promise<string>;
  /** `--csv`: the block as a CSV table, when it is one. */
  csv?(): CsvTable;
  /** `-q`: the ids of its rows. */
  ids?(): string[];
}

/** TSV cells must stay on one line and never contain the separator. */
const tsvCell = (v: unknown) => cellText(v).replace(/[\t\r\n]+/g, ' ');

/** A row's TSV cells: plain, unless colour was forced (FORCE_COLOR, cli.md): then styled. */
function tsvCells<T>(io: IO, columns: readonly Column<T>[], row: T): unknown[] {
  const s = io.color ? styles(true) : undefined;
  return columns.map((c) => (s && c.style ? c.style(tsvCell(c.value(row)), row, s) : c.value(row)));
}

/** A View as a Block: a bordered table on a terminal, its rows as TSV when piped. */
export function table<T>(view: View<T>): Block {
  const tag = view.tsvTag === undefined ? [] : [view.tsvTag];
  return {
    title: view.title,
    footer: view.footer,
    tsv: (io) => view.rows.map((row) => [...tag, ...tsvCells(io, view.columns, row)]),
    async draw(s, width) {
      if (view.rows.length === 0 && view.empty) return s.dim(view.empty);
      const { drawTable } = await import('./table.js');
      return drawTable({ ...view, rows: [...view.rows, ...(view.totals ?? [])] }, s, width);
    },
    csv: () => csvTableOf(view),
    ids: view.id ? () => view.rows.map(view.id!) : undefined,
  };
}

type Output<T> = View<T> | Block | readonly Block[];
const isBlockList = <T>(o: Output<T>): o is readonly Block[] => Array.isArray(o);
const isView = <T>(o: View<T> | Block): o is View<T> => 'columns' in o;

/**
 * The one output decision (cli.md "Output"): `--json` prints the API's data exactly;
 * off a terminal the same rows as plain TSV (coloured only when FORCE_COLOR says so); on
 * a terminal tables (or a block's own drawing) with colour.
 */
export async function render<T>(io: IO, opts: RenderOptions, output: Output<T>): Promise<void> {
  const blocks = isBlockList(output) ? output : [isView(output) ? table(output) : output];
  // --jq, --csv, --jsonl, -q (cli.md "For scripts").
  if (isScripted(opts)) return renderScript(io, opts, blocks);
  if (opts.json) return writeJson(io, opts.data);
  if (!io.tty.out) {
    for (const block of blocks) {
      const rows = block.tsv(io);
      if (rows.length) io.out.write(rows.map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n');
    }
    return;
  }
  const s = styles(io.color);
  const parts: string[] = [];
  for (const block of blocks) {
    let text = block.title ? s.bold(block.title) + '\n' : '';
    text += await block.draw(s, io.columns);
    if (block.footer) text += '\n' + s.dim(block.footer);
    parts.push(text);
  }
  io.out.write(parts.join('\n\n') + '\n');
}
