/**
 * `npm run bench:render`: rendering large lists (docs/cli-contract.md "At a terminal"). Draws a
 * nurture-like table of 1k, 4k and 20k rows (uuid ids, text, a date with its hint; one
 * row in ten with a wide character) on a terminal 100 wide, and writes the same rows as
 * TSV, through the built render code. Prints the median of BENCH_REPEATS runs (default 5)
 * and the 4k/1k ratio: a linear renderer is near 4 (cli-table3 was 5.4, 20k rows 48 s).
 */
import { randomUUID } from 'node:crypto';
import { drawTable } from '../dist/src/render/table.js';
import { writeTsv, table } from '../dist/src/render/block.js';
import { styles } from '../dist/src/render/styles.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const SIZES = (process.env.BENCH_ROWS ?? '1000,4000,20000').split(',').map(Number);

const columns = [
  { header: 'ID', kind: 'id', value: (r) => r.id },
  { header: 'TITLE', value: (r) => r.title, max: 60 },
  { header: 'STATUS', kind: 'code', value: (r) => r.status },
  { header: 'STEPS', kind: 'number', value: (r) => r.steps, align: 'right' },
  { header: 'UPDATED', kind: 'date', value: (r) => `${r.updated} (3 hours ago)`, short: (r) => r.updated, plain: (r) => r.updated },
];
const rowsOf = (n) =>
  Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    title: i % 10 === 0 ? `Relance 顧客 ${i} — a follow-up sequence with a long title` : `Follow-up sequence ${i} for new patients`,
    status: ['active', 'draft', 'paused'][i % 3],
    steps: i % 9,
    updated: new Date(Date.UTC(2026, 10, 22) - i * 60_000).toISOString(),
  }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const s = styles(true);
const sink = { write: () => {} };
const io = { out: sink, err: sink, tty: { out: false, err: false, in: false }, color: false, colorErr: false, columns: 100, ci: true, env: {} };
const results = [];
for (const n of SIZES) {
  const rows = rowsOf(n);
  const tableMs = time(() => drawTable({ rows, columns }, s, 100));
  const tsvMs = time(() => writeTsv(io, [table({ rows, columns })]));
  results.push({ rows: n, tableMs, tsvMs });
}
console.log('rows\ttable (ms)\tTSV (ms)');
for (const r of results) console.log(`${r.rows}\t${r.tableMs.toFixed(1)}\t${r.tsvMs.toFixed(1)}`);
const byRows = Object.fromEntries(results.map((r) => [r.rows, r]));
if (byRows[1000] && byRows[4000]) console.log(`4k/1k table time ratio: ${(byRows[4000].tableMs / byRows[1000].tableMs).toFixed(2)} (linear ≈ 4)`);
