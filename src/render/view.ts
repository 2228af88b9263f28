import type { Styles } from './styles.js';

/** One column of a table: how to get the cell text, and optionally how to colour it. */
export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  align?: 'left' | 'right';
  /** Decoration: on a terminal, or on piped TSV only when FORCE_COLOR asks for colour. */
  style?: (text: string, row: T, s: Styles) => string;
  /** Wrap long text to this many characters on a terminal. */
  wrap?: number;
  /** `--csv`: the full value when `value` is shortened or dressed for reading (an ISO date, not "in 3 days"). */
  csv?: (row: T) => CellValue;
}

export type CellValue = string | number | boolean | null | undefined;

/** A column of `--csv` output (cli.md "For scripts"). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CellValue;
}

/** Rows shown as a table on a terminal and as TSV lines when piped (cli.md "Output"). */
export interface View<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  title?: string;
  /** Extra lines under the table, terminal only (e.g. "showing 1-50 of 120"). */
  footer?: string;
  /** Message shown on a terminal instead of an empty table. */
  empty?: string;
  /** Rows drawn under `rows` on a terminal only (sums): piped, a script adds up for itself. */
  totals?: readonly T[];
  /** A first TSV column naming the table, when one stream carries rows of two tables. */
  tsvTag?: string;
  /** `-q`: the row's id, printed alone (cli.md "For scripts"). */
  id?: (row: T) => string;
  /** `--csv` columns when they are not the table's (money as an amount and a currency column). */
  csvColumns?: readonly CsvColumn<T>[];
}
