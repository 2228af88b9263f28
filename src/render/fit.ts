/** What fitting needs to know of a column. */
export interface FitColumn {
  /** Display width of the widest cell, header included. */
  natural: number;
  /** Only text columns may be cut (docs/cli-contract.md "At a terminal"). */
  cuttable: boolean;
  /** A text column's own cap, when it has one. */
  max?: number;
  /** Never cut below this many columns (a name column at 80 columns and more), whatever `minText`. */
  floor?: number;
}

/**
 * A text column keeps at least this many columns while a date still shows its relative hint:
 * enough for a title's distinguishing end (`Whitening follow-up #1…`), which is worth more
 * than `(10 hours ago)`.
 */
export const READABLE_TEXT = 16;

/** A cut text column keeps at least this many columns (seven characters and `…`) while ids can still be shortened. */
export const MIN_TEXT = 8;

/** The narrowest a text column is ever cut to, once nothing else can give way (three characters and `…`). */
export const LAST_TEXT = 4;

/** Columns taken by the gaps of `n` columns: `a  b  c`. */
export const frameWidth = (n: number) => 2 * (n - 1);

/**
 * Column widths that make a table fit `width` terminal columns: the widest text column loses
 * a column at a time until the table fits (so widest text columns are cut first), none below
 * `minText`. Null when it cannot fit: ids, numbers, money and dates are never cut here, so the
 * caller tries their shorter forms.
 */
export function fitWidths(columns: readonly FitColumn[], width: number, minText = MIN_TEXT): number[] | null {
  const least = (c: FitColumn) => Math.max(minText, c.floor ?? 0);
  const widths = columns.map((c) => (c.cuttable && c.max !== undefined ? Math.min(c.natural, Math.max(c.max, least(c))) : c.natural));
  const floor = columns.map((c, i) => (c.cuttable ? Math.min(widths[i]!, least(c)) : widths[i]!));
  let over = widths.reduce((a, b) => a + b, 0) + frameWidth(columns.length) - width;
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
