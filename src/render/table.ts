import { oneLineCell } from './escape.js';
import { fitWidths, LAST_TEXT, MIN_TEXT, READABLE_TEXT } from './fit.js';
import type { Styles } from './styles.js';
import { cellText } from './cell.js';
import type { Column, View } from './view.js';
import { cutToWidth, displayWidth } from './width.js';

const cuttable = <T>(c: Column<T>) => (c.kind ?? 'text') === 'text';

/** From this width ids show whole when the row fits with them; narrower, they are left out (docs/output.md "Tables"). */
export const WHOLE_IDS_FROM = 100;

/** From this width a name column (Column.name) keeps READABLE_TEXT columns, or its whole value, in every step. */
export const READABLE_NAMES_FROM = 80;

/**
 * What gives way, in order, when a table is wider than the terminal (docs/output.md "Tables"):
 * the id columns first, at any width: they show only when every name column is whole beside
 * them (whole or not at all: a cut id is one no command takes; --wide, -q, --json, --jsonl,
 * --csv and piped TSV carry them whole), then long text is cut to a
 * readable width, then dates lose their relative hint, then text other than the name is cut
 * further. Below READABLE_NAMES_FROM the name is text like any other.
 */
const STEPS = [
  { hideIds: false, dates: false, minText: READABLE_TEXT },
  { hideIds: false, dates: true, minText: READABLE_TEXT },
  { hideIds: true, dates: false, minText: READABLE_TEXT },
  { hideIds: true, dates: true, minText: READABLE_TEXT },
  { hideIds: true, dates: true, minText: MIN_TEXT },
  { hideIds: true, dates: true, minText: LAST_TEXT },
] as const;

/** Where ids may not leave the table (TableOptions.shortIds false): text gives way further, then blocks. */
const STEPS_KEEPING_IDS = [
  { hideIds: false, dates: false, minText: READABLE_TEXT },
  { hideIds: false, dates: true, minText: READABLE_TEXT },
  { hideIds: false, dates: true, minText: MIN_TEXT },
] as const;

/** Below this width a table gives way to blocks of `HEADER  value` lines. */
export const MIN_TABLE_WIDTH = 60;

/** Said under a table whose id columns were left out. */
export const IDS_LEFT_OUT = 'ids left out at this width: --wide shows them';

type Measure = (text: string) => number;

export interface TableOptions {
  /** `--wide`: every cell whole, whatever the terminal's width. */
  wide?: boolean;
  /** `--no-headers`: rows only. */
  headers?: boolean;
  /**
   * False where a reader acts on every id (a bulk run's report, a create's new record): ids
   * stay in the table, whole, at any width, and blocks come sooner.
   */
  shortIds?: boolean;
}

/** Every cell escaped onto one line and measured once, in its full form and its short (date) form. */
function measureCells<T>(view: Pick<View<T>, 'rows' | 'columns'>, measure: Measure) {
  const { columns } = view;
  const full = view.rows.map((row) => columns.map((c) => oneLineCell(cellText(c.value(row)))));
  const fullW = full.map((line) => line.map((t) => measure(t)));
  const shortDates = () => {
    const cells = view.rows.map((row, r) => columns.map((c, i) => (c.short ? oneLineCell(cellText(c.short(row))) : full[r]![i]!)));
    return { cells, widths: cells.map((line, r) => line.map((t, i) => (t === full[r]![i]! ? fullW[r]![i]! : measure(t)))) };
  };
  return { full: { cells: full, widths: fullW }, shortDates };
}

/** The kept columns' cells of every row. */
const pick = <V>(grid: V[][], keep: readonly number[]) => grid.map((line) => keep.map((i) => line[i]!));

/**
 * Draws rows as a borderless table (as gh and kubectl do) that fits `width` terminal columns,
 * what gives way in the order of STEPS; narrower than MIN_TABLE_WIDTH, or when even the last
 * step cannot fit, each row is a block of `HEADER  value` lines (ids whole).
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
  const all = columns.map((_, i) => i);
  const natural = (cellW: number[][], keep: readonly number[]) => keep.map((i) => cellW.reduce((w, line) => Math.max(w, line[i]!), headerW[i]!));
  if (opts.wide) return drawGrid(view, all, m.full.cells, m.full.widths, headerW, natural(m.full.widths, all), s, measure, opts);
  if (width >= MIN_TABLE_WIDTH) {
    const keepIds = opts.shortIds === false;
    const withoutIds = all.filter((i) => columns[i]!.kind !== 'id');
    const nameFloor = width >= READABLE_NAMES_FROM ? READABLE_TEXT : 0;
    let short: ReturnType<typeof m.shortDates> | undefined;
    for (const step of keepIds ? STEPS_KEEPING_IDS : STEPS) {
      if (!step.hideIds && !keepIds && width < WHOLE_IDS_FROM) continue;
      const keep = step.hideIds ? withoutIds : all;
      if (step.dates) short ??= m.shortDates();
      const forms = step.dates && short ? short : m.full;
      const nat = natural(forms.widths, keep);
      // The id column gives way first: beside ids a name column is never cut (other text is),
      // so a step that shows ids fits with every name whole or not at all, and the ids are
      // then left out (--wide shows them). Where ids must stay, the name keeps its floor.
      const nameFloorHere = (k: number) => (!step.hideIds && !keepIds ? nat[k]! : nameFloor);
      const widths = fitWidths(
        keep.map((i, k) => ({ natural: nat[k]!, cuttable: cuttable(columns[i]!), max: columns[i]!.max, floor: columns[i]!.name ? nameFloorHere(k) : 0 })),
        width,
        step.minText,
      );
      if (!widths) continue;
      const grid = drawGrid(view, keep, forms.cells, forms.widths, headerW, widths, s, measure, opts);
      const hidden = keep.length < all.length && opts.headers !== false;
      return hidden ? `${grid}\n${s.dim(IDS_LEFT_OUT)}` : grid;
    }
  }
  return drawRecords(view, m.full.cells, s, width);
}

function drawGrid<T>(
  view: Pick<View<T>, 'rows' | 'columns'>,
  keep: readonly number[],
  allCells: string[][],
  allCellW: number[][],
  allHeaderW: number[],
  widths: number[],
  s: Styles,
  measure: Measure,
  opts: TableOptions,
): string {
  const columns = keep.map((i) => view.columns[i]!);
  const cells = pick(allCells, keep);
  const cellW = pick(allCellW, keep);
  const headerW = keep.map((i) => allHeaderW[i]!);
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

/**
 * Rows as blocks of `HEADER  value` lines, for a terminal too narrow for any table. A cell that
 * shows nothing (a total row's id, a null) has no line: a label alone would read as a value lost.
 */
function drawRecords<T>(view: Pick<View<T>, 'rows' | 'columns'>, cells: string[][], s: Styles, width: number): string {
  const widest = Math.max(...view.columns.map((c) => displayWidth(c.header)));
  // The labels line up, unless that padding would wrap a whole id (`NEW VERSION` + 36 at 40
  // columns): then each label is only as wide as itself.
  const idWidth = Math.max(0, ...view.columns.flatMap((c, i) => (c.kind === 'id' ? cells.map((line) => displayWidth(line[i]!)) : [])));
  const aligned = widest + 2 + idWidth <= width;
  return view.rows
    .map((row, r) =>
      view.columns
        .flatMap((c, i) => {
          if (cells[r]![i]!.trim() === '') return [];
          const label = aligned ? widest : displayWidth(c.header);
          const room = Math.max(1, width - label - 2);
          const text = cutInBlock(c) ? cutToWidth(cells[r]![i]!, room) : cells[r]![i]!;
          return [s.bold.cyan(c.header.padEnd(label)) + '  ' + (c.style ? c.style(text, row, s) : text)];
        })
        .join('\n'),
    )
    .join('\n\n');
}
