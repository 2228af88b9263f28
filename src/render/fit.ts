/** What fitting needs to know of a column. */
export interface FitColumn {
  /** Display width of the widest cell, header included. */
  natural: number;
  /** Only text columns may be cut (docs/cli-contract.md "At a terminal"). */
  cuttable: boolean;
  /** A text column's own cap, when it has one. */
  max?: number;
}

/** A cut text column keeps at least this many columns (seven characters and `…`): less says nothing. */
export const MIN_TEXT = 8;

/** Columns taken by the frame of `n` columns: bordered `│ a │ b │`, or plain `a  b`. */
export const frameWidth = (n: number, bordered = true) => (bordered ? 3 * n + 1 : 2 * (n - 1));

/**
 * Column widths that make a bordered table fit `width` terminal columns: the widest text
 * column loses a column at a time until the table fits (so widest text columns are cut
 * first). Null when it cannot fit with every text column at its narrowest: ids, numbers,
 * money and dates are never cut, so the caller lays the rows out another way.
 */
export function fitWidths(columns: readonly FitColumn[], width: number, bordered = true): number[] | null {
  const widths = columns.map((c) => (c.cuttable && c.max !== undefined ? Math.min(c.natural, Math.max(c.max, MIN_TEXT)) : c.natural));
  const floor = columns.map((c, i) => (c.cuttable ? Math.min(widths[i]!, MIN_TEXT) : widths[i]!));
  let over = widths.reduce((a, b) => a + b, 0) + frameWidth(columns.length, bordered) - width;
  while (over > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) return null;
    widths[widest]!--;
    over--;
  }
  return widths;
}
