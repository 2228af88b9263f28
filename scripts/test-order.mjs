#!/usr/bin/env node
// Writes test/slowest-files.json, the files vitest.config.ts starts first, from a run's own
// report (vitest's JSON reporter):
//
//   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/vitest.json
//   node scripts/test-order.mjs /tmp/vitest.json [out]   (out: test/slowest-files.json)
//
// A clean clone has no timings of an earlier run for vitest to order by (it starts the largest
// files first), and a short file of slow tests started last kept the run going alone; so the
// slowest files of a whole run start first, longest first (test/README.md, "Where the time goes").
// Run it after a whole `npm test` on a quiet machine, and commit the file it writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/** How many files start first: those that take about as long as a worker's share of the run. */
const KEEP = 30;
const [report, OUT = 'test/slowest-files.json'] = process.argv.slice(2);
if (!report) {
  process.stderr.write('usage: node scripts/test-order.mjs <vitest JSON report> [out]\n');
  process.exit(2);
}
let results;
try {
  results = JSON.parse(readFileSync(report, 'utf8')).testResults;
} catch (err) {
  process.stderr.write(`scripts/test-order.mjs: cannot read ${report} as vitest's JSON report: ${err.message}\n`);
  process.exit(1);
}
if (!Array.isArray(results) || results.length === 0) {
  process.stderr.write(`scripts/test-order.mjs: ${report} has no testResults (a whole run's report is needed)\n`);
  process.exit(1);
}

// A file that runs in two projects (the command tests over PostgreSQL too) counts its longest run.
const longest = new Map();
for (const r of results) {
  if (typeof r.startTime !== 'number' || typeof r.endTime !== 'number') continue;
  const file = relative(resolve('.'), r.name);
  longest.set(file, Math.max(longest.get(file) ?? 0, r.endTime - r.startTime));
}
const files = [...longest]
  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  .slice(0, KEEP)
  .map(([file, ms]) => ({ file, seconds: Math.round(ms / 100) / 10 }));
writeFileSync(OUT, `${JSON.stringify({ from: 'scripts/test-order.mjs', measured: new Date().toISOString().slice(0, 10), files }, null, 2)}\n`);
process.stdout.write(`${OUT}: ${files.length} files, slowest ${files[0]?.file} (${files[0]?.seconds} s)\n`);
