import type { IO } from '../io/streams.js';
import { forStream } from './controls.js';
import type { CellValue, CsvColumn, View } from './view.js';

/** A table as `--csv` prints it: a header row and full values. */
export interface CsvTable {
  header: readonly string[];
  rows: readonly (readonly CellValue[])[];
}

/** The View's CSV columns: its own `csvColumns`, else the table's, each with its full value. */
export function csvColumnsOf<T>(view: View<T>): readonly CsvColumn<T>[] {
  return view.csvColumns ?? view.columns.map((c) => ({ header: c.header, value: c.csv ?? c.plain ?? c.value }));
}

export function csvTableOf<T>(view: View<T>): CsvTable {
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
export async function writeCsv(io: IO, table: CsvTable, opts: { header?: boolean } = {}): Promise<void> {
  const { stringify } = await import('csv-stringify/sync');
  const records = opts.header === false ? table.rows : [table.header, ...table.rows];
  if (records.length === 0) return;
  // At a terminal the cells are escaped, not the whole text: the CRLF record ends stay as they are.
  const cell = (v: CellValue) => (typeof v === 'string' ? forStream(v, io.tty.out) : v);
  const text = stringify(
    records.map((r) => r.map(cell)),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/, cast: { boolean: (b) => String(b) } },
  );
  io.out.write(text);
}
