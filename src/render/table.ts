import { oneLineCell } from './escape.js';
import { fitWidths, LAST_TEXT, MIN_TEXT, READABLE_TEXT } from './fit.js';
import type { Styles } from './styles.js';
import { cellText } from './cell.js';
import type { Column, View } from './view.js';
import { cutToWidth, displayWidth } from './width.js';

const cuttable = <T>(c: Column<T>) => (c.kind ?? 'text') === 'text';

/** An id's short form at a narrow terminal: its first 8 characters, like a short commit hash. */
const SHORT_ID = 8;
const shortId = (id: string) => (id.length > SHORT_ID + 1 ? id.slice(0, SHORT_ID) + '…' : id);

/**
 * What gives way, in order, when a table is wider than the terminal (docs/cli-contract.md "At a
 * terminal"): long text is cut first, to a readable width; then dates lose their relative hint;
 * then text is cut further; then ids show their first 8 characters (the whole id is in --wide,
 * -q, piped and JSON output); then text is cut to its last few characters. The columns and
 * their order never change.
 */
const STEPS = [
  { dates: false, ids: false, minText: READABLE_TEXT },
  { dates: true, ids: false, minText: READABLE_TEXT },
  { dates: true, ids: false, minText: MIN_TEXT },
  { dates: true, ids: true, minText: MIN_TEXT },
  { dates: true, ids: true, minText: LAST_TEXT },
] as const;

/** Below this width a table gives way to blocks of `HEADER  value` lines. */
export const MIN_TABLE_WIDTH = 60;

type Measure = (text: string) => number;

export interface TableOptions {
  /** `--wide`: every cell whole, whatever the terminal's width. */
  wide?: boolean;
  /** `--no-headers`: rows only. */
  headers?: boolean;
  /** False where a reader acts on every id (a bulk run's report): ids stay whole, blocks come sooner. */
  shortIds?: boolean;
}

/** Every cell escaped onto one line and measured once, in its full form and its short forms. */
function measureCells<T>(view: Pick<View<T>, 'rows' | 'columns'>, measure: Measure) {
  const { columns } = view;
  const full = view.rows.map((row) => columns.map((c) => oneLineCell(cellText(c.value(row)))));
  const fullW = full.map((line) => line.map((t) => measure(t)));
  const variant = (date: boolean, id: boolean) => {
    const cells = view.rows.map((row, r) =>
      columns.map((c, i) => {
        if (date && c.short) return oneLineCell(cellText(c.short(row)));
        if (id && c.kind === 'id') return shortId(full[r]![i]!);
        return full[r]![i]!;
      }),
    );
    return { cells, widths: cells.map((line, r) => line.map((t, i) => (t === full[r]![i]! ? fullW[r]![i]! : measure(t)))) };
  };
  return { full: { cells: full, widths: fullW }, variant };
}

/**
 * Draws rows as a borderless table (as gh and kubectl do) that fits `width` terminal columns:
 * one column set in one order at every width from MIN_TABLE_WIDTH up, what gives way in the
 * order of STEPS; narrower than that, or when even the last step cannot fit, each row is a
 * block of `HEADER  value` lines.
 *
 * Linear in the rows: every cell is escaped and measured once per form (`measure` is injectable
 * so a test can count the calls). cli-table3, used before, ran a layout pass per cell over the
 * whole table (its rowSpan conflict search): 20,000 rows took most of a minute.
 */
export function drawTable<T>(
  view: Pick<View<T>, 'rows' | 'columns'>,
  s: Styles,
  width: number,
  measure: Measure = displayWidth,
  opts: TableOptions = {},
): string {
  const { columns } = view;
  const m = measureCells(view, measure);
  const headerW = columns.map((c) => (opts.headers === false ? 0 : measure(c.header)));
  const natural = (cellW: number[][]) => columns.map((_, i) => cellW.reduce((w, line) => Math.max(w, line[i]!), headerW[i]!));
  if (opts.wide) return drawGrid(view, m.full.cells, m.full.widths, headerW, natural(m.full.widths), s, measure, opts);
  if (width >= MIN_TABLE_WIDTH) {
    const made = new Map<string, ReturnType<typeof m.variant>>();
    for (const step of STEPS) {
      if (step.ids && opts.shortIds === false) continue;
      const key = `${step.dates}${step.ids}`;
      if (!made.has(key)) made.set(key, step.dates || step.ids ? m.variant(step.dates, step.ids) : m.full);
      const forms = made.get(key)!;
      const nat = natural(forms.widths);
      const widths = fitWidths(
        columns.map((c, i) => ({ natural: nat[i]!, cuttable: cuttable(c), max: c.max })),
        width,
        step.minText,
      );
      if (widths) return drawGrid(view, forms.cells, forms.widths, headerW, widths, s, measure, opts);
    }
  }
  return drawRecords(view, m.full.cells, s, width);
}

function drawGrid<T>(
  view: Pick<View<T>, 'rows' | 'columns'>,
  cells: string[][],
  cellW: number[][],
  headerW: number[],
  widths: number[],
  s: Styles,
  measure: Measure,
  opts: TableOptions,
): string {
  const { columns } = view;
  const cell = (text: string, w: number, i: number, paint: (t: string) => string) => {
    const cut = w > widths[i]! ? cutToWidth(text, widths[i]!, w) : text;
    const pad = ' '.repeat(Math.max(0, widths[i]! - (cut === text ? w : measure(cut))));
    const painted = paint(cut);
    return columns[i]!.align === 'right' ? pad + painted : painted + pad;
  };
  const line = (parts: string[]) => parts.join('  ').trimEnd();
  const out: string[] = [];
  if (opts.headers !== false) out.push(line(columns.map((c, i) => cell(c.header, headerW[i]!, i, (t) => s.bold.cyan(t)))));
  view.rows.forEach((row, r) => {
    out.push(line(columns.map((c, i) => cell(cells[r]![i]!, cellW[r]![i]!, i, (t) => (c.style ? c.style(t, row, s) : t)))));
  });
  return out.join('\n');
}

/**
 * In the block form a text or code cell is cut to the line: a code comes from the API and a
 * value outside its vocabulary may be of any length. Ids stay whole; numbers, money and dates
 * are cr's own short forms.
 */
const cutInBlock = <T>(c: Column<T>) => cuttable(c) || c.kind === 'code';

/** Rows as blocks of `HEADER  value` lines, for a terminal too narrow for any table. */
function drawRecords<T>(view: Pick<View<T>, 'rows' | 'columns'>, cells: string[][], s: Styles, width: number): string {
  const label = Math.max(...view.columns.map((c) => displayWidth(c.header)));
  const room = Math.max(1, width - label - 2);
  return view.rows
    .map((row, r) =>
      view.columns
        .map((c, i) => {
          const text = cutInBlock(c) ? cutToWidth(cells[r]![i]!, room) : cells[r]![i]!;
          return s.bold.cyan(c.header.padEnd(label)) + '  ' + (c.style ? c.style(text, row, s) : text);
        })
        .join('\n'),
    )
    .join('\n\n');
}
