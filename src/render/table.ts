import Table from 'cli-table3';
import { cellText, type Styles } from './styles.js';
import type { View } from './view.js';

/** Draws a view as a bordered cli-table3 table that fits the terminal width where it can. */
export function drawTable<T>(view: View<T>, s: Styles, width: number): string {
  const table = new Table({
    head: view.columns.map((c) => s.bold.cyan(c.header)),
    colAligns: view.columns.map((c) => c.align ?? 'left'),
    style: { head: [], border: [] },
    wordWrap: true,
    ...wrapWidths(view, width),
  });
  for (const row of view.rows) {
    table.push(
      view.columns.map((c) => {
        const text = cellText(c.value(row));
        return c.style ? c.style(text, row, s) : text;
      }),
    );
  }
  return table.toString();
}

/** Gives wrapping columns what the terminal has left once the others are sized. */
function wrapWidths<T>(view: View<T>, width: number): { colWidths?: (number | null)[] } {
  if (!view.columns.some((c) => c.wrap)) return {};
  const natural = view.columns.map((c) =>
    Math.max(c.header.length, ...view.rows.map((r) => cellText(c.value(r)).length)) + 2,
  );
  const fixed = view.columns.reduce((sum, c, i) => sum + (c.wrap ? 0 : natural[i]!), 0);
  const wrapping = view.columns.filter((c) => c.wrap).length;
  const borders = view.columns.length + 1;
  const left = Math.max(20, Math.floor((width - fixed - borders) / wrapping));
  return { colWidths: view.columns.map((c, i) => (c.wrap ? Math.min(left, (c.wrap ?? left) + 2, natural[i]!) : null)) };
}
