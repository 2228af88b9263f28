import type { IO } from '../io/streams.js';
import { forStream } from './controls.js';
import type { CellValue, CsvColumn, View } from './view.js';

/** A table as `--csv` prints it: a header row and full values. */
export interface CsvTable {
  header: readonly string[];
  rows: readonly (readonly CellValue[])[];
}

/**
 * The View's CSV columns: its own `csvColumns`, else the table's columns that show a JSON field,
 * headed by the field's name, each with its full value (docs/cli-contract.md "For scripts").
 */
export function csvColumnsOf<T>(view: Pick<View<T>, 'columns' | 'csvColumns'>): readonly CsvColumn<T>[] {
  return view.csvColumns ?? view.columns.filter((c) => c.field).map((c) => ({ header: c.field!, value: c.csv ?? c.plain ?? c.value }));
}

export function csvTableOf<T>(view: Pick<View<T>, 'rows' | 'columns' | 'csvColumns'>): CsvTable {
  const columns = csvColumnsOf(view);
  return { header: columns.map((c) => c.header), rows: view.rows.map((r) => columns.map((c) => c.value(r))) };
}

/** Cents as a decimal amount for CSV (`123456` → `1234.56`), the currency in a column of its own. */
export const csvAmount = (cents: number): string => (cents / 100).toFixed(2);

/**
 * RFC 4180 through csv-stringify (loaded only for --csv): CRLF line ends, fields quoted
 * when they hold a comma, quote or line break; null and undefined as empty fields.
 * (csv-stringify quotes only its own record delimiter, hence `quoted_match` for a lone LF.)
 * `header: false` continues a table already started (pages of `--all`).
 */
export async function writeCsv(io: IO, table: CsvTable, opts: { header?: boolean; safe?: boolean } = {}): Promise<void> {
  const { stringify } = await import('csv-stringify/sync');
  const records = opts.header === false ? table.rows : [table.header, ...table.rows];
  if (records.length === 0) return;
  // At a terminal the cells are escaped, not the whole text: the CRLF record ends stay as they are.
  const cell = (v: CellValue) => {
    const text = opts.safe ? inertCell(v) : v;
    return typeof text === 'string' ? forStream(text, io.tty.out) : text;
  };
  const text = stringify(
    records.map((r) => r.map(cell)),
    // --csv-safe quotes every field too, as OWASP's CSV-injection guidance asks.
    { record_delimiter: 'windows', quoted_match: /[\r\n]/, quoted_string: Boolean(opts.safe), cast: { boolean: (b) => String(b) } },
  );
  io.out.write(text);
}

/**
 * What a spreadsheet may take for the start of a formula: OWASP's "CSV Injection" list (`=`, `+`,
 * `-`, `@`, tab, CR) and ASVS 1.2.10's NUL; also those signs after leading white space (some
 * importers trim it) and in their full-width forms (`＝`, `＋`, `－`, `＠`, which CJK input
 * turns into formulas). --csv-safe has given up exact values already, so it errs on the side of the quote.
 */
const FORMULA_START = /^(?:[\t\r\0]|\s*[=+\-@\uff1d\uff0b\uff0d\uff20])/;
/** A plain number is data whatever its sign: `-12.50` stays a number a spreadsheet can add. */
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * `--csv-safe` (docs/cli-contract.md "CSV and spreadsheets"): a text cell a spreadsheet would run as
 * a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`) gets a leading `'`, which spreadsheets show as
 * text and do not run. Plain `--csv` keeps every value exact, for scripts.
 */
export function inertCell(v: CellValue): CellValue {
  if (typeof v !== 'string' || !FORMULA_START.test(v) || NUMBER.test(v)) return v;
  return `'${v}`;
}
