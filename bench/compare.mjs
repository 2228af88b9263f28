/**
 * `npm run bench:compare`: this build against another built checkout (BENCH_BEFORE=folder), the
 * rows of `npm run bench` that a change to the request path or start-up can move, measured
 * side by side in one run so that a shared machine's load hits both builds alike:
 *
 *   start-up      `--version`, `finance summary --json` (against one running server),
 *                 `finance summary --local --json`: each build's process timed round-robin with
 *                 the other's (bench/rusage.py: wall and CPU time per run)
 *   reads         GET /finance/summary, 50 connections, on each build's server over one 1k store
 *   writes        durable POST /content/listeners, 50 writers, each run on a fresh store copy
 *
 * Each load row alternates the builds (before, after, before, after…) for BENCH_ROUNDS rounds
 * and reports the median of the per-round after/before ratios: requests a second and server
 * CPU per request. A ratio of 1.00 is "no change"; a start-up ratio under 1 is faster, a
 * throughput ratio over 1 is faster.
 *
 * Knobs: BENCH_BEFORE=folder (required: a checkout with `npm ci && npm run build` done)
 * BENCH_ROUNDS=N (default 5) BENCH_LOAD_MS=N (per run, default 3000) BENCH_CLI_RUNS=N (default 20)
 * Prints a Markdown table; docs/benchmarks.md keeps the figures of a change worth recording.
 */
import { execFileSync, fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateStore, storeText } from './gen-store.mjs';
import { listenerBody } from './bodies.mjs';
import { runLoad } from './load.mjs';
import { summarize } from './stats.mjs';

const AFTER = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const env = process.env;
if (!env.BENCH_BEFORE) {
  console.error('bench/compare.mjs: set BENCH_BEFORE to a built checkout to compare with (git worktree add …; npm ci; npm run build)');
  process.exit(2);
}
const BEFORE = resolve(env.BENCH_BEFORE);
for (const dir of [BEFORE, AFTER])
  if (!existsSync(join(dir, 'dist/bundle/cli.js')) || !existsSync(join(dir, 'dist/src/server/serve.js')))
    throw new Error(`${dir} is not built: run npm run build there`);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
const LOAD_MS = Number(env.BENCH_LOAD_MS ?? 3000);
const CLI_RUNS = Number(env.BENCH_CLI_RUNS ?? 20);
const CONNS = 50;
const log = (...a) => console.error('[bench compare]', ...a);

const tmp = mkdtempSync(join(tmpdir(), 'cr-bench-compare-'));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));

const builds = { before: BEFORE, after: AFTER };
const g = generateStore(1000);
const basePath = join(tmp, 'base.json');
writeFileSync(basePath, storeText(g.data));
const auth = { authorization: `Bearer ${g.key}` };
let copies = 0;
const freshCopy = () => {
  const p = join(tmp, `store-${copies++}.json`);
  copyFileSync(basePath, p);
  return p;
};

/** A build's server over `storePath`, in a process of its own (that build's bench/server-child.mjs). */
async function startServer(build, storePath) {
  const child = fork(join(builds[build], 'bench/server-child.mjs'), ['cr', storePath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const next = (type) => new Promise((res) => child.on('message', (m) => m.type === type && res(m)));
  const { url } = await next('ready');
  const cpuMs = async () => {
    child.send('stats');
    const s = await next('stats');
    return s.cpuUserMs + s.cpuSystemMs;
  };
  const close = async () => {
    child.send('close');
    await new Promise((res) => child.once('exit', res));
    children.delete(child);
  };
  return { url, cpuMs, close };
}

/** One load run on a server: requests a second and server CPU ms per request. */
async function loadRun(srv, opts) {
  const a = await srv.cpuMs();
  const res = await runLoad({ origin: srv.url, headers: auth, connections: CONNS, durationMs: LOAD_MS, ...opts });
  const b = await srv.cpuMs();
  if (res.errors) throw new Error(`${srv.url}${opts.path}: ${res.errors} failed requests (${JSON.stringify(res.status)})`);
  return { perSecond: res.rps, cpuPerRequest: (b - a) / Math.max(1, res.ok) };
}

const ratios = {};
/** Each build's requests a second per round, for the absolute figures under the ratios. */
const rates = {};
function rate(row, build, v) {
  rates[row] ??= { before: [], after: [] };
  rates[row][build].push(v);
}

function push(row, key, v) {
  ratios[row] ??= {};
  ratios[row][key] ??= [];
  ratios[row][key].push(v);
}

// Start-up: both builds' commands, round-robin, each against the after build's server.
{
  const srv = await startServer('after', freshCopy());
  const plans = Object.entries(builds).map(([name, dir]) => {
    const home = join(tmp, `home-${name}`);
    mkdirSync(home, { mode: 0o700 });
    const base = { PATH: env.PATH, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), CR_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8' };
    const cr = join(dir, 'bin/cr.js');
    return {
      name,
      cmds: {
        version: [[process.execPath, cr, '--version'], base],
        summary: [[process.execPath, cr, 'finance', 'summary', '--json'], { ...base, CR_BASE_URL: `${srv.url}/api/v1`, CR_API_KEY: g.key }],
        local: [[process.execPath, cr, 'finance', 'summary', '--local', '--json'], { ...base, CR_STORE: join(home, 'local.json') }],
      },
    };
  });
  const order = [];
  // Two untimed rounds first: each build makes its local store and any per-user cache.
  for (let i = 0; i < CLI_RUNS + 2; i++)
    for (const row of ['version', 'summary', 'local'])
      for (const p of plans) order.push({ i, row, build: p.name, cmd: p.cmds[row][0], env: p.cmds[row][1], cwd: tmp });
  log(`start-up: ${CLI_RUNS} rounds of 3 commands × 2 builds…`);
  const timed = JSON.parse(execFileSync('python3', [join(AFTER, 'bench/rusage.py')], { input: JSON.stringify(order), encoding: 'utf8', maxBuffer: 64 << 20 }));
  for (let k = 0; k < order.length; k += 2) {
    if (order[k].i < 2) continue;
    const [b, a] = order[k].build === 'before' ? [timed[k], timed[k + 1]] : [timed[k + 1], timed[k]];
    push(`start-up: ${order[k].row}`, 'wall', a.wall / b.wall);
    push(`start-up: ${order[k].row}`, 'cpu', a.cpu / b.cpu);
  }
  await srv.close();
}

// Reads: each build's server over its own copy of one store, alternated.
{
  const servers = { before: await startServer('before', freshCopy()), after: await startServer('after', freshCopy()) };
  for (const srv of Object.values(servers)) await loadRun(srv, { path: '/api/v1/finance/summary', durationMs: 500 });
  log(`reads: ${ROUNDS} rounds of ${LOAD_MS} ms per build…`);
  for (let r = 0; r < ROUNDS; r++) {
    const b = await loadRun(servers.before, { path: '/api/v1/finance/summary' });
    const a = await loadRun(servers.after, { path: '/api/v1/finance/summary' });
    rate('GET /finance/summary, 50 connections', 'before', b.perSecond);
    rate('GET /finance/summary, 50 connections', 'after', a.perSecond);
    push('GET /finance/summary, 50 connections', 'perSecond', a.perSecond / b.perSecond);
    push('GET /finance/summary, 50 connections', 'cpuPerRequest', a.cpuPerRequest / b.cpuPerRequest);
  }
  for (const srv of Object.values(servers)) await srv.close();
}

// Durable writes: a fresh store and server per run, alternated.
log(`writes: ${ROUNDS} rounds of ${LOAD_MS} ms per build…`);
for (let r = 0; r < ROUNDS; r++) {
  const one = {};
  for (const build of ['before', 'after']) {
    const srv = await startServer(build, freshCopy());
    one[build] = await loadRun(srv, { path: '/api/v1/content/listeners', method: 'POST', body: listenerBody });
    await srv.close();
  }
  for (const build of ['before', 'after']) rate('durable POST /content/listeners, 50 writers', build, one[build].perSecond);
  push('durable POST /content/listeners, 50 writers', 'perSecond', one.after.perSecond / one.before.perSecond);
  push('durable POST /content/listeners, 50 writers', 'cpuPerRequest', one.after.cpuPerRequest / one.before.cpuPerRequest);
}
const med = (xs) => summarize(xs).median.toFixed(3);
const lines = [
  `After (${AFTER}) / before (${BEFORE}); median of per-round ratios; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores, ${new Date().toISOString().slice(0, 16)}Z.`,
  '',
  '| row | after / before |',
  '|---|---|',
  ...Object.entries(ratios).map(
    ([row, m]) =>
      `| ${row} | ${Object.entries(m)
        .map(([k, xs]) => `${k} ${med(xs)}`)
        .join(', ')} |`,
  ),
  '',
  '| row | before req/s, median | after req/s, median |',
  '|---|---|---|',
  ...Object.entries(rates).map(([row, r]) => `| ${row} | ${summarize(r.before).median.toFixed(0)} | ${summarize(r.after).median.toFixed(0)} |`),
];
console.log(lines.join('\n'));
