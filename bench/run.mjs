/**
 * `npm run bench`: CLI start-up, end-to-end call, server throughput and latency, scale,
 * group commit and json-server. Prints the tables and rewrites its section of docs/benchmarks.md
 * (bench/doc-writer.mjs).
 *
 * Knobs (environment):
 *   BENCH_QUICK=1        smoke run: short load tests, fewer runs, sizes 1k and 10k only
 *   BENCH_LOAD_MS=N      total time per load test (split into BENCH_REPEATS runs; default 10000)
 *   BENCH_REPEATS=N      runs per measurement (default 3); figures are the median, with min–max
 *   BENCH_CLI_RUNS=N     timed runs per CLI command (default 30, after 5 warm-up runs)
 *   BENCH_SIZES=1000,…   revenue-record counts of the scale tests (default 1000,10000,100000)
 *   BENCH_PROFILE=0      do not profile missed targets
 *   BENCH_DOC=path       where to write the report (default docs/benchmarks.md; "-" = do not write)
 *   BENCH_ONLY=a,b       run only these sections (cli, reads, writes, json, scale) and print their
 *                        figures as JSON; no report, no profiles (for working on one section)
 */
import { fork, spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem, release, loadavg } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { runLoad } from './load.mjs';
import { adBody, listenerBody } from './bodies.mjs';
import { timeInterleaved, outputOf } from './processes.mjs';
import { summarize, range, kfmt, div as x } from './stats.mjs';
import { generateStore, storeText, PROPORTIONS } from './gen-store.mjs';
import { renderReport } from './report.mjs';
import { writeBenchSection } from './doc-writer.mjs';
import { buildTargets } from './targets.mjs';
import { summarizeProfile, profileIn } from './profile.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const LOAD_MS = Number(env.BENCH_LOAD_MS ?? (QUICK ? 1500 : 10_000));
const REPEATS = Number(env.BENCH_REPEATS ?? 3);
const RUN_MS = Math.max(300, Math.round(LOAD_MS / REPEATS));
const CLI_RUNS = Number(env.BENCH_CLI_RUNS ?? (QUICK ? 5 : 30));
const CLI_WARMUP = QUICK ? 1 : 5;
const SIZES = (env.BENCH_SIZES ?? (QUICK ? '1000,10000' : '1000,10000,100000')).split(',').map(Number);
const LAT_MS = QUICK ? 400 : 1000; // per repeat, sequential latency probes of the scale tests
const PROFILE = env.BENCH_PROFILE !== '0';
const PROFILE_MS = QUICK ? 1500 : 4000;
const SECTIONS = ['cli', 'reads', 'writes', 'json', 'scale'];
const ONLY = env.BENCH_ONLY ? env.BENCH_ONLY.split(',').map((t) => t.trim()) : SECTIONS;
for (const o of ONLY) if (!SECTIONS.includes(o)) throw new Error(`BENCH_ONLY: unknown section ${o} (known: ${SECTIONS.join(', ')})`);
const PARTIAL = ONLY.length < SECTIONS.length;
const want = (section) => ONLY.includes(section);
const DOC = env.BENCH_DOC ?? join(ROOT, 'docs/benchmarks.md');
const CONNS = 50;
const T_START = Date.now();

const tmp = mkdtempSync(join(tmpdir(), 'cr-bench-'));
const children = new Set();
const cleanup = () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));

const log = (...a) => console.error(`[bench ${((Date.now() - T_START) / 1000).toFixed(0).padStart(3)}s]`, ...a);
const median = (xs) => summarize(xs).median;
const stat = (xs) => summarize(xs.filter(Number.isFinite));

// ---------------------------------------------------------------------------------------
// Servers in child processes

function startChild(mode, storePath, { profileOut, profileFrom, extraEnv } = {}) {
  const childEnv = { ...env, ...extraEnv, ...(profileOut ? { BENCH_PROFILE_OUT: profileOut, BENCH_PROFILE_FROM: profileFrom ?? 'ready' } : {}) };
  const child = fork(join(ROOT, 'bench/server-child.mjs'), [mode, storePath ?? ''], { env: childEnv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const waiters = [];
  child.on('message', (m) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
  });
  const exited = new Promise((res) => child.once('exit', (code, sig) => (children.delete(child), res({ code, sig }))));
  const waitFor = (type, ms = 120_000) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`server child (${mode}) sent no ${type} in ${ms} ms`)), ms);
      waiters.push({ type, resolve: (m) => (clearTimeout(t), resolve(m)) });
      exited.then(({ code, sig }) => reject(new Error(`server child (${mode}) exited ${code ?? sig} before ${type}`)));
    });
  const ready = waitFor('ready');
  return {
    ready,
    stats: () => (child.send('stats'), waitFor('stats')),
    close: async () => {
      child.send('close');
      const m = await waitFor('closed');
      await exited;
      return m;
    },
  };
}

// ---------------------------------------------------------------------------------------
// Stores

const stores = new Map();
function baseStore(n) {
  if (!stores.has(n)) {
    const t0 = Date.now();
    const g = generateStore(n);
    const path = join(tmp, `base-${n}.json`);
    writeFileSync(path, storeText(g.data));
    const counts = Object.fromEntries(Object.keys(PROPORTIONS).map((c) => [c, g.data[c].length]));
    stores.set(n, { path, key: g.key, websiteId: g.websiteId, bytes: statSync(path).size, counts });
    log(`generated ${kfmt(n)} store: ${(statSync(path).size / 1048576).toFixed(1)} MB in ${Date.now() - t0} ms`);
  }
  return stores.get(n);
}
let copyNo = 0;
function freshStore(n) {
  const b = baseStore(n);
  const dir = join(tmp, `s${++copyNo}`);
  mkdirSync(dir);
  const path = join(dir, 'store.json');
  copyFileSync(b.path, path);
  return { ...b, path };
}

const auth = (key) => ({ authorization: `Bearer ${key}` });

/** The durable write scenarios: route, body of request i for a store, where the record lands. */
const WRITES = {
  listeners: { label: 'POST /content/listeners', path: '/api/v1/content/listeners', collection: 'content_listeners', body: () => listenerBody },
  // docs/api-decisions.md, POST /content/ads/creatives/create: name, ad_format, destination_url
  // and the website (the bench key's own).
  ads: {
    label: 'POST /content/ads/creatives/create',
    path: '/api/v1/content/ads/creatives/create',
    collection: 'ad_creatives',
    body: (s) => adBody(s.websiteId),
  },
};

/**
 * Acknowledged ids missing from a cr store after its server stopped: the store re-opened the way
 * a server opens it (dist's Store.open: snapshot, then any journal replayed), so the check holds
 * whatever the store keeps in its journal at close.
 */
async function lostInStore(path, collection, ids) {
  const { Store } = await import('../dist/src/server/store/store.js');
  const store = await Store.open(path);
  try {
    const have = new Set((store.data[collection] ?? []).map((r) => r.id));
    return ids.filter((id) => !have.has(id)).length;
  } finally {
    await store.close();
  }
}

/** Acknowledged ids missing from a plain JSON file (json-server's db) after a stop. */
function lostOf(path, collection, ids) {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  const have = new Set((data[collection] ?? []).map((r) => r.id));
  return ids.filter((id) => !have.has(id)).length;
}

/** Server-side fsyncs and commits between two stats snapshots. */
const delta = (a, b) => ({
  fsyncs: b.fsyncs - a.fsyncs,
  commits: a.commits === null || b.commits === null ? null : b.commits - a.commits,
  serverCpuMs: b.cpuUserMs + b.cpuSystemMs - a.cpuUserMs - a.cpuSystemMs,
});

function aggregate(runs) {
  const rps = stat(runs.map((r) => r.rps));
  return {
    rps,
    rpsRuns: runs.map((r) => r.rps),
    p50: stat(runs.map((r) => r.p50)),
    p99: stat(runs.map((r) => r.p99)),
    ok: runs.reduce((s, r) => s + r.ok, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    status: runs.map((r) => r.status),
    clientCpuPct: median(runs.map((r) => r.clientCpuPct)),
    serverCpuPct: runs[0].serverCpuPct === undefined ? NaN : median(runs.map((r) => r.serverCpuPct)),
    bytesPerResponse: median(runs.map((r) => r.bytesPerResponse)),
    fsyncs: runs.reduce((s, r) => s + (r.fsyncs ?? 0), 0),
    commits: runs.some((r) => r.commits == null) ? null : runs.reduce((s, r) => s + r.commits, 0),
    acked: runs.reduce((s, r) => s + r.ids.length, 0),
    lost: runs.some((r) => r.lost == null) ? null : runs.reduce((s, r) => s + r.lost, 0),
  };
}

/**
 * Read loads on running servers, interleaved run by run (A B C, A B C, …): a ratio of two
 * scenarios then compares runs made minutes apart at most, not blocks made at different
 * moments of a shared machine's load.
 */
async function readLoads(scenarios) {
  const runs = scenarios.map(() => []);
  for (let r = 0; r < REPEATS; r++) {
    for (const [i, { srv, stats, path, key }] of scenarios.entries()) {
      const a = await stats();
      const res = await runLoad({ origin: srv.url, path, headers: auth(key), connections: CONNS, durationMs: RUN_MS });
      const b = await stats();
      runs[i].push({ ...res, serverCpuPct: (delta(a, b).serverCpuMs / res.elapsedMs) * 100 });
    }
  }
  return runs.map(aggregate);
}

/** One durable-write run: a fresh copy of the store and a fresh server, checked after a clean stop. */
async function writeRun(n, { write = 'listeners', writers }, durationMs = RUN_MS) {
  const w = WRITES[write];
  const s = freshStore(n);
  const child = startChild('cr', s.path);
  const srv = await child.ready;
  const a = await child.stats();
  const res = await runLoad({
    origin: srv.url,
    path: w.path,
    method: 'POST',
    headers: auth(s.key),
    body: w.body(s),
    connections: writers,
    durationMs,
    ackId: (j) => j?.data?.id,
  });
  const b = await child.stats();
  await child.close();
  const d = delta(a, b);
  const run = {
    ...res,
    ...d,
    serverCpuPct: (d.serverCpuMs / res.elapsedMs) * 100,
    lost: await lostInStore(s.path, w.collection, res.ids),
    storeStats: b.storeStats,
  };
  rmSync(s.path, { force: true });
  return run;
}

/** Durable write scenarios ({write, writers}), REPEATS runs each, interleaved like readLoads. */
async function writeLoads(n, scenarios) {
  const runs = scenarios.map(() => []);
  for (let r = 0; r < REPEATS; r++) {
    for (const [i, sc] of scenarios.entries()) runs[i].push(await writeRun(n, sc));
  }
  return runs.map((rs) => ({ ...aggregate(rs), storeStats: rs[rs.length - 1].storeStats }));
}

// ---------------------------------------------------------------------------------------
// json-server

const freePort = () =>
  new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

async function jsonServerLoad(writers) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/json-server/package.json'), 'utf8'));
  const bin = join(ROOT, 'node_modules/json-server', typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['json-server']);
  const runs = [];
  for (let r = 0; r < REPEATS; r++) {
    const dir = join(tmp, `js${r}`);
    mkdirSync(dir, { recursive: true });
    const db = join(dir, 'db.json');
    writeFileSync(db, JSON.stringify({ listeners: [] }, null, 2));
    const port = await freePort();
    const child = spawn(process.execPath, [bin, db, '--port', String(port), '--host', '127.0.0.1'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    children.add(child);
    const exited = new Promise((res) => child.once('exit', () => (children.delete(child), res())));
    const origin = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 200) throw new Error('json-server did not start');
      try {
        const res = await fetch(`${origin}/listeners`);
        await res.text();
        if (res.ok) break;
      } catch {
        /* not up yet */
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    const res = await runLoad({
      origin,
      path: '/listeners',
      method: 'POST',
      body: (i) =>
        JSON.stringify({
          name: `bench listener ${i}`,
          sourceType: 'reddit',
          queryConfig: { subreddit: 'smallbusiness', keywords: ['seo'] },
          pollInterval: '6h',
        }),
      connections: writers,
      durationMs: RUN_MS,
      ackId: (j) => j?.id,
    });
    await new Promise((r2) => setTimeout(r2, 300)); // let its last (acknowledged) write land
    child.kill('SIGTERM');
    await exited;
    runs.push({ ...res, lost: lostOf(db, 'listeners', res.ids) });
  }
  return { ...aggregate(runs), version: pkg.version };
}

// ---------------------------------------------------------------------------------------
// Profiles of missed targets

async function profileServer(label, n, scenario) {
  const dir = join(tmp, `prof-${label.replace(/\W+/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  const s = freshStore(n);
  const out = join(dir, 'server.cpuprofile');
  const child = startChild('cr', s.path, { profileOut: out, profileFrom: scenario === 'load' ? 'start' : 'ready' });
  const srv = await child.ready;
  if (scenario === 'load') {
    // the store load itself: profile of start-up, no traffic
  } else if (scenario === 'summary') {
    await runLoad({ origin: srv.url, path: '/api/v1/finance/summary', headers: auth(s.key), connections: CONNS, durationMs: PROFILE_MS });
  } else {
    const w = WRITES[scenario.write];
    await runLoad({
      origin: srv.url,
      path: w.path,
      method: 'POST',
      headers: auth(s.key),
      body: w.body(s),
      connections: scenario.writers,
      durationMs: PROFILE_MS,
    });
  }
  await child.close();
  return { label, ...summarizeProfile(out, { top: 10 }) };
}

function profileCli(label, args, cliEnv) {
  const dir = join(tmp, `prof-${label.replace(/\W+/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`, ...args], { env: cliEnv, stdio: 'ignore' });
  const f = profileIn(dir);
  return f ? { label, ...summarizeProfile(f, { top: 10 }) } : null;
}

// ---------------------------------------------------------------------------------------

const results = {};
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model?.trim() ?? 'unknown',
  memGb: (totalmem() / 1073741824).toFixed(1),
  node: process.version,
  os: `${process.platform} ${release()}`,
  date: new Date().toISOString(),
  // The machine is shared: the 1-minute load average at the start (and, below, at the end)
  // says how much other work the figures ran next to.
  loadStart: loadavg()[0],
  curl: (() => {
    try {
      return execFileSync('curl', ['--version']).toString().split('\n')[0].split(' ').slice(0, 2).join(' ');
    } catch {
      return null;
    }
  })(),
};
const config = { QUICK, LOAD_MS, REPEATS, RUN_MS, CLI_RUNS, CLI_WARMUP, SIZES, CONNS };
log(`machine: ${machine.cores} cores, ${machine.cpu}, Node ${machine.node}; config ${JSON.stringify(config)}`);

// 1 + 2. CLI start-up and end-to-end call, against a running local server (1k store)
{
  const s = freshStore(SIZES[0]);
  const child = startChild('cr', s.path);
  const srv = await child.ready;
  const cfgDir = join(tmp, 'cli-config');
  mkdirSync(cfgDir);
  const base = `${srv.url}/api/v1`;
  const cliEnv = { ...env, CR_BASE_URL: base, CR_API_KEY: s.key, CR_CONFIG_DIR: cfgDir, NO_COLOR: '1' };
  delete cliEnv.CR_PROFILE;
  const node = process.execPath;
  const cr = join(ROOT, 'bin/cr.js');
  // The summary's exact bytes, as the server sends them: the bare routes of section 3 answer with them.
  const summaryText = outputOf('curl', ['-sf', '-H', `Authorization: Bearer ${s.key}`, `${base}/finance/summary`]);
  if (want('cli')) {
    // Check what is timed: both calls return the same summary.
    const viaCli = JSON.parse(outputOf(node, [cr, 'finance', 'summary', '--json'], cliEnv));
    const viaCurl = JSON.parse(summaryText);
    const same = JSON.stringify(viaCli.data ?? viaCli) === JSON.stringify(viaCurl.data ?? viaCurl);
    if (!same) log('warning: cr finance summary --json and curl returned different bodies');
    // --local as a newcomer runs it: no profile, no key, the embedded server over a store of its
    // own (demo data). The first run creates the store and the key; the timed ones reuse them.
    const localEnv = { ...cliEnv, CR_STORE: join(tmp, 'local-store', 'store.json') };
    delete localEnv.CR_BASE_URL;
    delete localEnv.CR_API_KEY;
    const viaLocal = JSON.parse(outputOf(node, [cr, 'finance', 'summary', '--local', '--json'], localEnv));
    if (!Array.isArray((viaLocal.data ?? viaLocal).summaries)) log('warning: cr finance summary --local --json printed no summaries');
    log('timing CLI start-up…');
    const t = timeInterleaved(
      [
        { name: 'floor', cmd: node, args: ['-e', '0'], env: cliEnv },
        { name: 'version', cmd: node, args: [cr, '--version'], env: cliEnv },
        { name: 'help', cmd: node, args: [cr, '--help'], env: cliEnv },
        { name: 'summary', cmd: node, args: [cr, 'finance', 'summary', '--json'], env: cliEnv },
        { name: 'local', cmd: node, args: [cr, 'finance', 'summary', '--local', '--json'], env: localEnv },
        { name: 'curl', cmd: 'curl', args: ['-sf', '-o', '/dev/null', '-H', `Authorization: Bearer ${s.key}`, `${base}/finance/summary`], env: cliEnv },
      ],
      { runs: CLI_RUNS, warmup: CLI_WARMUP },
    );
    results.cli = { ...t, sameBody: same, cliEnv, localEnv, cfgDir };
  }

  // 3. Server throughput and latency (reads) on the same 1k server, next to two floors, each
  // in a server of its own: a bare Hono route (constant envelope, and the summary's bytes) and
  // a bare node:http route with the summary's bytes; interleaved run by run.
  if (want('reads')) {
    log('load: bare Hono routes, bare node:http route, GET /finance/summary, GET /content/nurture-sequences (interleaved)…');
    const hono = startChild('hono', null, { extraEnv: { BENCH_BODY: summaryText } });
    const nodehttp = startChild('nodehttp', null, { extraEnv: { BENCH_BODY: summaryText } });
    const honoSrv = await hono.ready;
    const nodeSrv = await nodehttp.ready;
    [results.hono, results.honoBody, results.nodeBody, results.summary, results.nurture] = await readLoads([
      { srv: honoSrv, stats: hono.stats, path: '/api/v1/bare', key: 'unused' },
      { srv: honoSrv, stats: hono.stats, path: '/api/v1/bare-body', key: 'unused' },
      { srv: nodeSrv, stats: nodehttp.stats, path: '/api/v1/bare-body', key: 'unused' },
      { srv, stats: child.stats, path: '/api/v1/finance/summary', key: s.key },
      { srv, stats: child.stats, path: '/api/v1/content/nurture-sequences', key: s.key },
    ]);
    await hono.close();
    await nodehttp.close();
  }
  await child.close();
}

// 5 (and 3's write rows). Group commit at the smallest size: listeners with 1, 10 and 50
// writers, and ads create with 50 (the targets' write row), interleaved run by run.
if (want('writes')) {
  log(`load: POST /content/listeners with 1, 10 and ${CONNS} writers, POST ads create with ${CONNS}, ${kfmt(SIZES[0])} store (interleaved)…`);
  const writeScenarios = [
    { write: 'listeners', writers: 1 },
    { write: 'listeners', writers: 10 },
    { write: 'listeners', writers: CONNS },
    { write: 'ads', writers: CONNS },
  ];
  const w = await writeLoads(SIZES[0], writeScenarios);
  results.writes = { 1: w[0], 10: w[1], [CONNS]: w[2] };
  results.adsWrites = w[3];
}
if (want('json')) {
  log('load: json-server POST /listeners, 50 writers…');
  results.jsonServer = await jsonServerLoad(CONNS);
}

// 4. Scale
results.scale = {};
for (const n of want('scale') ? SIZES : []) {
  log(`scale ${kfmt(n)}: load, RSS, latencies…`);
  const loads = [];
  const rss = [];
  const heap = [];
  const sumP50 = [];
  const writeP50 = [];
  let summaryBytes = 0;
  for (let r = 0; r < REPEATS; r++) {
    const s = freshStore(n);
    const child = startChild('cr', s.path);
    const srv = await child.ready;
    loads.push(srv.loadMs);
    rss.push(srv.rssMb);
    heap.push(srv.heapMb);
    const g = await runLoad({ origin: srv.url, path: '/api/v1/finance/summary', headers: auth(s.key), connections: 1, durationMs: LAT_MS, maxRequests: 500 });
    sumP50.push(g.p50);
    summaryBytes = g.bytesPerResponse;
    const p = await runLoad({
      origin: srv.url,
      path: '/api/v1/content/listeners',
      method: 'POST',
      headers: auth(s.key),
      body: listenerBody,
      connections: 1,
      durationMs: LAT_MS,
      maxRequests: 200,
    });
    writeP50.push(p.p50);
    await child.close();
    rmSync(s.path, { force: true });
  }
  const b = baseStore(n);
  results.scale[n] = {
    fileMb: b.bytes / 1048576,
    counts: b.counts,
    loadMs: stat(loads),
    rssMb: stat(rss),
    heapMb: stat(heap),
    summaryP50: stat(sumP50),
    summaryKb: summaryBytes / 1024,
    writeP50: stat(writeP50),
  };
  if (n === SIZES[0] && results.writes) results.scale[n].writes50 = results.writes[CONNS];
  else {
    log(`scale ${kfmt(n)}: POST with 50 writers…`);
    [results.scale[n].writes50] = await writeLoads(n, [{ write: 'listeners', writers: CONNS }]);
  }
}

if (PARTIAL) {
  // A partial run (BENCH_ONLY): its figures as JSON, no report (the report needs every section).
  const brief = (r) =>
    r && typeof r === 'object' && 'rps' in r
      ? {
          rps: range(r.rps, 0),
          p50: r.p50.median,
          p99: r.p99.median,
          serverCpuPct: r.serverCpuPct,
          errors: r.errors,
          acked: r.acked,
          lost: r.lost,
          status: r.status,
        }
      : r;
  const out = Object.fromEntries(
    Object.entries(results).map(([k, v]) => [
      k,
      k === 'cli'
        ? Object.fromEntries(Object.entries(v).filter(([, s]) => s?.median))
        : k === 'writes'
          ? Object.fromEntries(Object.entries(v).map(([w, r]) => [w, brief(r)]))
          : brief(v),
    ]),
  );
  if (results.summary && results.nodeBody) out.summaryVsNodeHttp = x(results.summary.rps.median, results.nodeBody.rps.median);
  console.log(JSON.stringify(out, null, 2));
  log(`done (sections ${ONLY.join(', ')}) in ${((Date.now() - T_START) / 1000).toFixed(0)} s; no report written`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------
// Targets

const c = results.cli;
const small = SIZES[0];
const { targets, vsNodeHttp } = buildTargets({ results, SIZES, CONNS, crBin: join(ROOT, 'bin/cr.js'), profileServer, profileCli });

const profiles = [];
if (PROFILE) {
  const done = new Set();
  for (const t of targets.filter((t) => !t.ok && t.profile)) {
    const key = t.profile.toString();
    if (done.has(key)) continue;
    done.add(key);
    log(`profiling missed target: ${t.what}…`);
    try {
      let p;
      if (t.needsServer) {
        const s = freshStore(small);
        const child = startChild('cr', s.path);
        const srv = await child.ready;
        const e = { ...c.cliEnv, CR_BASE_URL: `${srv.url}/api/v1`, CR_API_KEY: s.key };
        p = profileCli('cr finance summary --json', [join(ROOT, 'bin/cr.js'), 'finance', 'summary', '--json'], e);
        await child.close();
      } else p = await t.profile();
      if (p) profiles.push({ target: t.what, ...p });
    } catch (err) {
      log(`profile failed: ${err.message}`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Report

const totalS = (Date.now() - T_START) / 1000;
const reportConfig = { QUICK, REPEATS, RUN_MS, CLI_RUNS, CLI_WARMUP, SIZES, CONNS, LAT_MS, PROFILE };
const rendered = renderReport({ results, machine, targets, profiles, config: reportConfig, vsNodeHttp, listenerBody, adBody, totalS });
if (DOC !== '-') writeBenchSection(DOC, 'run', rendered);
console.log(rendered);
log(`done in ${totalS.toFixed(0)} s${DOC !== '-' ? `; wrote ${DOC}` : ''}`);
