/**
 * `node bench/undici-edits.mjs`: what scripts/bundle-plugin.mjs's edits of undici save, on every Node
 * line: the time to load the Node built-ins that the edits keep off a run's start-up
 * (node:http for util.js and client.js, node:http2 for the HTTP/2 fallback, node:assert for
 * the assert stand-in), each in a fresh process that has already loaded what every request
 * loads anyway (node:net, node:stream, node:events). Median of BENCH_RUNS (default 20) fresh
 * processes per module and line, interleaved; the per-line total is what one `cr finance
 * summary` would pay without the edits. CPU time (process.cpuUsage around the require), so
 * a busy machine's scheduling does not stretch it. Modules shared by http and http2 count in
 * both columns: the total is an upper bound.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { summarize } from './stats.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const LINES = (process.env.BENCH_LINES ?? '20,22,24,26').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const own = process.versions.node.split('.')[0];
const nodes = { [own]: process.execPath };
const others = LINES.filter((l) => l !== own);
if (others.length)
  for (const row of execFileSync(join(ROOT, 'scripts/node-lines.sh'), others, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')) {
    const [line, path] = row.split(' ');
    nodes[line] = path;
  }

const MODULES = { http: 'node:http', http2: 'node:http2', assert: 'node:assert' };
const probe = (mod) =>
  `require('node:net');require('node:stream');require('node:events');const c=process.cpuUsage();require(${JSON.stringify(mod)});const d=process.cpuUsage(c);process.stdout.write(String((d.user+d.system)/1e3))`;
const samples = Object.fromEntries(LINES.flatMap((line) => Object.keys(MODULES).map((n) => [`${line} ${n}`, []])));
for (let i = 0; i < RUNS; i++)
  for (const line of LINES)
    for (const [name, mod] of Object.entries(MODULES))
      samples[`${line} ${name}`].push(Number(execFileSync(nodes[line], ['-e', probe(mod)], { encoding: 'utf8' })));

const rows = LINES.map((line) => {
  const ms = Object.fromEntries(Object.keys(MODULES).map((n) => [n, summarize(samples[`${line} ${n}`]).median]));
  const version = execFileSync(nodes[line], ['--version'], { encoding: 'utf8' }).trim();
  return { line, version, ...ms, total: Object.values(ms).reduce((a, b) => a + b, 0) };
});
console.log('| Node | node:http (util.js, client.js edits) | node:http2 (HTTP/2 fallback) | node:assert (assert stand-in) | total CPU saved per run |');
console.log('|---|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.version} | ${r.http.toFixed(2)} ms | ${r.http2.toFixed(2)} ms | ${r.assert.toFixed(2)} ms | ${r.total.toFixed(2)} ms |`);
console.log(JSON.stringify(rows));
