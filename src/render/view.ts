import type { Styles } from './styles.js';

/**
 * What a column holds. Only `text` is ever cut to fit a terminal (docs/cli-contract.md "At a terminal":
 * ids, numbers, money and dates are never cut); `code` is a short value from a fixed
 * vocabulary (a status, a role, a type), never cut either.
 */
export type ColumnKind = 'text' | 'code' | 'id' | 'number' | 'money' | 'date';

export type CellValue = string | number | boolean | null | undefined;

/** One column of a table: how to get the cell text, and optionally how to colour it. */
export interface Column<T> {
  header: string;
  value: (row: T) => CellValue;
  /** What the column holds (default `text`): decides whether a cell may be cut. */
  kind?: ColumnKind;
  /**
   * The piped (TSV) cell when it differs from the terminal one: a date's plain ISO value
   * without the relative hint (docs/cli-contract.md: "Piped TSV holds plain ISO values, no hints").
   */
  plain?: (row: T) => CellValue;
  /**
   * A shorter form the table falls back to when the terminal is narrow, before it gives up
   * on columns: a date without its relative hint. Never a cut value.
   */
  short?: (row: T) => CellValue;
  align?: 'left' | 'right';
  /** Decoration: on a terminal, or on piped TSV only when FORCE_COLOR asks for colour. */
  style?: (text: string, row: T, s: Styles) => string;
  /**
   * The row's human name (entity, title, client, name): from 80 columns it keeps at least 16
   * columns or its whole value, and the ids give way first: they show only beside a whole name
   * (docs/output.md "Tables"). No `max` on it: a name is cut only to fit.
   */
  name?: boolean;
  /** A text column's widest on a terminal, in display columns (longer cells are cut with `…`). */
  max?: number;
  /** `--csv`: the full value when `value` is shortened or dressed for reading (an ISO date, not "in 3 days"). */
  csv?: (row: T) => CellValue;
  /**
   * The JSON field the column shows (`contentId`, `activePromptVersion.promptText`): its `--csv`
   * header (docs/cli-contract.md "For scripts"). A column without one is not in the CSV.
   */
  field?: string;
  /** Piped TSV only, not drawn at a terminal: a money column's currency, beside the plain amount. */
  tsvOnly?: boolean;
}

/** A column of `--csv` output (docs/cli-contract.md "For scripts"). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CellValue;
}

/** Rows shown as a table on a terminal and as TSV lines when piped (docs/cli-contract.md §4). */
export interface View<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  title?: string;
  /** Extra lines under the table, terminal only (e.g. "showing 1-50 of 120"). */
  footer?: string;
  /**
   * Said on standard error when the rows are one page of a longer list and the output is
   * piped, where no footer shows (docs/cli-contract.md: "nothing is dropped silently").
   */
  partial?: string;
  /** Message shown on a terminal instead of an empty table. */
  empty?: string;
  /** Rows drawn under `rows` on a terminal only (sums): piped, a script adds up for itself. */
  totals?: readonly T[];
  /** A first TSV column naming the table, when one stream carries rows of two tables. */
  tsvTag?: string;
  /** A create's or a schedule's record: its ids stay whole at any width (blocks sooner). */
  keepIds?: boolean;
  /** `-q`: the row's id, printed alone (docs/cli-contract.md "For scripts"). */
  id?: (row: T) => string;
  /** `--csv` columns when they are not the table's (money as an amount and a currency column). */
  csvColumns?: readonly CsvColumn<T>[];
}
