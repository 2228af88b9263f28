import { oneLineCell } from './escape.js';
import { fitWidths } from './fit.js';
import type { Styles } from './styles.js';
import { cellText } from './cell.js';
import type { Column, View } from './view.js';
import { cutToWidth, displayWidth } from './width.js';

/** Light box drawing, without lines between rows. */
const BOX = { top: ['┌', '┬', '┐'], mid: ['├', '┼', '┤'], bottom: ['└', '┴', '┘'], h: '─', v: '│' } as const;

const cuttable = <T>(c: Column<T>) => (c.kind ?? 'text') === 'text';

/** The ways to lay a table out, tried in order until one fits: borders go before information. */
const LAYOUTS = [
  { bordered: true, short: false },
  { bordered: false, short: false },
  { bordered: false, short: true },
] as const;

type Measure = (text: string) => number;

/** Every cell escaped onto one line and measured once: the full form, and the short one where a column has it. */
function measureCells<T>(view: Pick<View<T>, 'rows' | 'columns'>, measure: Measure) {
  const { columns } = view;
  const full = view.rows.map((row) => columns.map((c) => oneLineCell(cellText(c.value(row)))));
  const short = view.rows.map((row, r) => columns.map((c, i) => (c.short ? oneLineCell(cellText(c.short(row))) : full[r]![i]!)));
  const fullW = full.map((line) => line.map((t) => measure(t)));
  const shortW = short.map((line, r) => line.map((t, i) => (columns[i]!.short ? measure(t) : fullW[r]![i]!)));
  return { full, short, fullW, shortW };
}

/**
 * Draws rows as a table that fits `width` terminal columns (docs/cli-contract.md "At a terminal"): text
 * cells are cut with `…`, widest text columns first; other cells never. When that is not
 * enough, the borders go, then the relative hints of dates; when even that cannot fit,
 * each row is drawn as a block of `HEADER  value` lines.
 *
 * Linear in the rows: every cell is escaped and measured once (`measure` is injectable so a
 * test can count the calls). cli-table3, used before, ran a layout pass per cell over the
 * whole table (its rowSpan conflict search): 20,000 rows took most of a minute.
 */
export function drawTable<T>(view: Pick<View<T>, 'rows' | 'columns'>, s: Styles, width: number, measure: Measure = displayWidth): string {
  const { columns } = view;
  const m = measureCells(view, measure);
  const headerW = columns.map((c) => measure(c.header));
  for (const layout of LAYOUTS) {
    const cellW = layout.short ? m.shortW : m.fullW;
    const natural = columns.map((_, i) => cellW.reduce((w, line) => Math.max(w, line[i]!), headerW[i]!));
    const widths = fitWidths(
      columns.map((c, i) => ({ natural: natural[i]!, cuttable: cuttable(c), max: c.max })),
      width,
      layout.bordered,
    );
    if (widths) return drawGrid(view, layout.short ? m.short : m.full, cellW, headerW, widths, layout.bordered, s, measure);
  }
  return drawRecords(view, m.full, s, width);
}

function drawGrid<T>(
  view: Pick<View<T>, 'rows' | 'columns'>,
  cells: string[][],
  cellW: number[][],
  headerW: number[],
  widths: number[],
  bordered: boolean,
  s: Styles,
  measure: Measure,
): string {
  const { columns } = view;
  const cell = (text: string, w: number, i: number, paint: (t: string) => string) => {
    const cut = w > widths[i]! ? cutToWidth(text, widths[i]!, w) : text;
    const pad = ' '.repeat(Math.max(0, widths[i]! - (cut === text ? w : measure(cut))));
    const painted = paint(cut);
    return columns[i]!.align === 'right' ? pad + painted : painted + pad;
  };
  const line = (parts: string[]) => (bordered ? `${BOX.v} ${parts.join(` ${BOX.v} `)} ${BOX.v}` : parts.join('  ').trimEnd());
  const rule = ([l, m, r]: readonly string[]) => l + widths.map((w) => BOX.h.repeat(w + 2)).join(m) + r;
  const out: string[] = [];
  if (bordered) out.push(rule(BOX.top));
  out.push(line(columns.map((c, i) => cell(c.header, headerW[i]!, i, (t) => s.bold.cyan(t)))));
  if (bordered) out.push(rule(BOX.mid));
  view.rows.forEach((row, r) => {
    out.push(line(columns.map((c, i) => cell(cells[r]![i]!, cellW[r]![i]!, i, (t) => (c.style ? c.style(t, row, s) : t)))));
  });
  if (bordered) out.push(rule(BOX.bottom));
  return out.join('\n');
}

/** Rows as blocks of `HEADER  value` lines, for a terminal too narrow for any table. */
function drawRecords<T>(view: Pick<View<T>, 'rows' | 'columns'>, cells: string[][], s: Styles, width: number): string {
  const label = Math.max(...view.columns.map((c) => displayWidth(c.header)));
  const room = Math.max(1, width - label - 2);
  return view.rows
    .map((row, r) =>
      view.columns
        .map((c, i) => {
          const text = cuttable(c) ? cutToWidth(cells[r]![i]!, room) : cells[r]![i]!;
          return s.bold.cyan(c.header.padEnd(label)) + '  ' + (c.style ? c.style(text, row, s) : text);
        })
        .join('\n'),
    )
    .join('\n\n');
}
