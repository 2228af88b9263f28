/**
 * `npm run bench`: CLI start-up, end-to-end call, server throughput and latency, scale,
 * group commit and json-server. Prints the tables and rewrites docs/benchmarks.md.
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
import { timeInterleaved, outputOf } from './processes.mjs';
import { summarize, fmt } from './stats.mjs';
import { generateStore, storeText, PROPORTIONS } from './gen-store.mjs';
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
const range = (s, d = 1) => `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;
const x = (a, b) => (b > 0 ? a / b : NaN);
const fx = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : 'n/a');
const pct = (r) => (Number.isFinite(r) ? `${(r * 100).toFixed(0)} %` : 'n/a');
const kfmt = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

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
const listenerBody = (i) =>
  JSON.stringify({ name: `bench listener ${i}`, source_type: 'reddit', query_config: { subreddit: 'smallbusiness', keywords: ['seo'] }, poll_interval: '6h' });

const adBody = (websiteId) => (i) =>
  JSON.stringify({
    website_id: websiteId,
    name: `bench ad ${i}`,
    ad_format: 'single_image',
    destination_url: 'https://example.com/landing',
    headline: 'Bench headline',
    platform: 'meta',
  });

/** The durable write scenarios: route, body of request i for a store, where the record lands. */
const WRITES = {
  listeners: { label: 'POST /content/listeners', path: '/api/v1/content/listeners', collection: 'content_listeners', body: () => listenerBody },
  // docs/api-decisions.md, POST /content/ads/creatives/create: name, ad_format, destination_url
  // and the website (the bench key's own).
  ads: { label: 'POST /content/ads/creatives/create', path: '/api/v1/content/ads/creatives/create', collection: 'ad_creatives', body: (s) => adBody(s.websiteId) },
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
      ? { rps: range(r.rps, 0), p50: r.p50.median, p99: r.p99.median, serverCpuPct: r.serverCpuPct, errors: r.errors, acked: r.acked, lost: r.lost, status: r.status }
      : r;
  const out = Object.fromEntries(
    Object.entries(results).map(([k, v]) => [k, k === 'cli' ? Object.fromEntries(Object.entries(v).filter(([, s]) => s?.median)) : k === 'writes' ? Object.fromEntries(Object.entries(v).map(([w, r]) => [w, brief(r)])) : brief(v)]),
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
const big = SIZES[SIZES.length - 1];
const w50 = results.writes[CONNS];
const w1 = results.writes[1];
const targets = [
  {
    id: 'version',
    what: '`cr --version` vs `node -e 0`',
    measured: x(c.version.median, c.floor.median),
    show: (v) => fx(v),
    target: '≤ 1.20×',
    met: (v) => v <= 1.2,
    profile: () => profileCli('cr --version', [join(ROOT, 'bin/cr.js'), '--version'], c.cliEnv),
  },
  {
    id: 'summary-cli',
    what: '`cr finance summary --json` vs `node -e 0`',
    measured: x(c.summary.median, c.floor.median),
    show: (v) => fx(v),
    target: '≤ 1.60×',
    met: (v) => v <= 1.6,
    profile: () => profileCli('cr finance summary --json', [join(ROOT, 'bin/cr.js'), 'finance', 'summary', '--json'], c.cliEnv),
    needsServer: true,
  },
  {
    id: 'local-cli',
    what: '`cr finance summary --local --json` vs `node -e 0`',
    measured: x(c.local.median, c.floor.median),
    show: (v) => fx(v),
    target: '≤ 2.20×',
    met: (v) => v <= 2.2,
    profile: () => profileCli('cr finance summary --local --json', [join(ROOT, 'bin/cr.js'), 'finance', 'summary', '--local', '--json'], c.localEnv),
  },
  {
    id: 'summary-vs-hono',
    what: `GET /finance/summary req/s at ${kfmt(small)} records vs bare Hono route`,
    measured: x(results.summary.rps.median, results.hono.rps.median),
    show: pct,
    target: '≥ 50 %',
    met: (v) => v >= 0.5,
    profile: () => profileServer('GET /finance/summary', small, 'summary'),
  },
  {
    id: 'writes-abs',
    what: `durable POST req/s, 50 writers, ${kfmt(small)} records`,
    measured: w50.rps.median,
    show: (v) => fmt(v, 0),
    target: '≥ 5,000',
    met: (v) => v >= 5000,
    profile: () => profileServer('POST /content/listeners 50 writers', small, { write: 'listeners', writers: CONNS }),
  },
  {
    id: 'writes-scaling',
    what: `durable POST req/s, 50 writers vs 1 writer (${kfmt(small)})`,
    measured: x(w50.rps.median, w1.rps.median),
    show: fx,
    target: '≥ 10×',
    met: (v) => v >= 10,
    profile: () => profileServer('POST /content/listeners 50 writers', small, { write: 'listeners', writers: CONNS }),
  },
  {
    id: 'writes-big',
    what: `durable POST req/s, 50 writers, ${kfmt(big)} vs ${kfmt(small)} records`,
    measured: x(results.scale[big].writes50.rps.median, w50.rps.median),
    show: pct,
    target: '≥ 50 %',
    met: (v) => v >= 0.5,
    profile: () => profileServer(`POST /content/listeners 50 writers at ${kfmt(big)}`, big, { write: 'listeners', writers: CONNS }),
  },
  {
    id: 'load-big',
    what: `store load, ${kfmt(big)} revenue records`,
    measured: results.scale[big].loadMs.median,
    show: (v) => `${fmt(v, 0)} ms`,
    target: '< 2,000 ms',
    met: (v) => v < 2000,
    profile: () => profileServer(`store load at ${kfmt(big)}`, big, 'load'),
  },
  {
    id: 'summary-big',
    what: `GET /finance/summary p50, ${kfmt(big)} revenue records`,
    measured: results.scale[big].summaryP50.median,
    show: (v) => `${fmt(v, 1)} ms`,
    target: '< 50 ms',
    met: (v) => v < 50,
    profile: () => profileServer(`GET /finance/summary at ${kfmt(big)}`, big, 'summary'),
  },
  {
    id: 'rss-big',
    what: `RSS after load, ${kfmt(big)} revenue records`,
    measured: results.scale[big].rssMb.median,
    show: (v) => `${fmt(v, 0)} MB`,
    target: '< 300 MB',
    met: (v) => v < 300,
  },
];
if (big !== 100_000) for (const t of targets) if (/big/.test(t.id)) t.note = `(run at ${kfmt(big)}, the target is for 100k)`;
for (const t of targets) t.ok = t.met(t.measured);

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
const ms = (s) => range(s, 1);
/** Server CPU per answered request, µs: steadier than req/s on a shared machine. */
const cpuPerRequest = (r) => ((r.serverCpuPct / 100) * 1e6) / r.rps.median;
const rpsRow = (name, r, ceiling) =>
  `| ${name} | ${range(r.rps, 0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ceiling ? pct(x(r.rps.median, ceiling.rps.median)) : '100 %'} | ${fmt(cpuPerRequest(r), 0)}${ceiling ? ` (${fx(x(cpuPerRequest(r), cpuPerRequest(ceiling)))})` : ''} | ${fmt(r.bytesPerResponse / 1024, 1)} | ${fmt(r.serverCpuPct, 0)} % / ${fmt(r.clientCpuPct, 0)} % | ${r.errors} |`;
const storeStatsNote = (() => {
  const ss = w50.storeStats;
  return ss
    ? `store.stats() after the last 50-writer run: \`${JSON.stringify(ss)}\``
    : 'store.stats() is not available in this build; commits come from `store.commits`, fsyncs from the instrumented fs layer (`startServer({fs})`).';
})();

const L = [];
L.push('# Benchmarks');
L.push('');
L.push('Generated by `npm run bench` (bench/run.mjs); do not edit by hand, re-run it. Every timing is the');
L.push('median of several runs with (min–max); every ratio compares figures measured in the same run.');
L.push('');
L.push('## Machine and run');
L.push('');
L.push(`- ${machine.cores} cores, ${machine.cpu}, ${machine.memGb} GB RAM, ${machine.os}`);
L.push(`- Node ${machine.node}${machine.curl ? `, ${machine.curl}` : ''}, json-server ${results.jsonServer.version}`);
L.push(
  `- Load average (1 min) ${machine.loadStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (${machine.cores} cores; other work on the machine)`,
);
L.push(`- ${machine.date}; whole run ${totalS.toFixed(0)} s${QUICK ? ' (**BENCH_QUICK=1 smoke run: figures are indicative only**)' : ''}`);
L.push(
  `- Load tests: ${REPEATS} runs of ${(RUN_MS / 1000).toFixed(1)} s each (${((REPEATS * RUN_MS) / 1000).toFixed(0)} s per scenario), ${CONNS} keep-alive connections unless stated, closed loop (each connection sends its next request when the answer is read), undici \`Pool\` in the bench process; every server runs in its own process (\`bench/server-child.mjs\`, forked), on 127.0.0.1. Write scenarios start each run on a fresh copy of the store and a fresh server.`,
);
L.push(
  `- CLI timings: ${CLI_RUNS} timed runs after ${CLI_WARMUP} warm-up runs, commands interleaved round-robin, wall time of the whole process (\`spawnSync\`, \`process.hrtime\`).`,
);
L.push(
  '- On 2 cores the load generator and the server share the machine: the server gets one core, the generator the other. The "CPU server / client" column shows each side\'s CPU use over the run (100 % = one core), so a saturated generator is visible.',
);
L.push('');
L.push('## Targets');
L.push('');
L.push('| target | measured | target | result |');
L.push('|---|---|---|---|');
for (const t of targets) L.push(`| ${t.what}${t.note ? ` ${t.note}` : ''} | ${t.show(t.measured)} | ${t.target} | ${t.ok ? 'met' : '**missed**'} |`);
L.push('');
L.push('## Before and after');
L.push('');
L.push(
  '"Before" is what earlier measurements on this machine gave (medians of paired runs) before the start-up work for --local (V8 code cache trained on a --local run too, zod without its compiled parsers on short runs, ICU loaded on first money format); "after" is this run, every ratio from figures measured side by side in it.',
);
L.push('');
L.push('| measure | before | after (this run) | target |');
L.push('|---|---|---|---|');
L.push(`| \`cr finance summary --json\` against a running server / \`node -e 0\` | 1.75× | ${fx(x(c.summary.median, c.floor.median))} | ≤ 1.6× |`);
L.push(
  `| \`cr finance summary --local --json\` / \`node -e 0\` | 3.6× (~400 ms) | ${fx(x(c.local.median, c.floor.median))} (${fmt(c.local.median, 0)} ms) | ≤ 2.2× |`,
);
L.push(
  `| \`GET /finance/summary\`, ${CONNS} connections, vs a bare node:http route sending the same bytes | 0.29–0.37× | not measured here (no bare node:http route in this bench); vs the bare Hono route with the same bytes: ${fx(x(results.summary.rps.median, results.honoBody.rps.median))} | ≥ 0.6× |`,
);
L.push(
  `| durable POST ads create, ${CONNS} writers, ${kfmt(small)} records | 4,300–4,400/s | not measured here (this bench writes POST /content/listeners: ${fmt(w50.rps.median, 0)}/s, lost ${w50.lost ?? 'n/a'}) | ≥ 8,000/s, none lost |`,
);
L.push('');
L.push('## 1. CLI start-up');
L.push('');
L.push(
  `Against a running local server (${kfmt(small)}-record store); \`CR_BASE_URL\`, \`CR_API_KEY\`, \`CR_CONFIG_DIR\` (temporary folder) set in the environment.`,
);
L.push('');
L.push('| command | wall ms, median (min–max) | ratio to `node -e 0` |');
L.push('|---|---|---|');
const cliRows = [
  ['`node -e 0` (floor)', c.floor],
  ['`node bin/cr.js --version`', c.version],
  ['`node bin/cr.js --help`', c.help],
  ['`node bin/cr.js finance summary --json`', c.summary],
  ['`node bin/cr.js finance summary --local --json` (embedded server, own store; no `CR_BASE_URL`/`CR_API_KEY`)', c.local],
];
for (const [n, s] of cliRows) L.push(`| ${n} | ${ms(s)} | ${fx(x(s.median, c.floor.median))} |`);
L.push('');
L.push('## 2. End-to-end call');
L.push('');
L.push('The same URL and key, both as whole processes (start, request, print, exit).');
L.push('');
L.push('| command | wall ms, median (min–max) | ratio to curl |');
L.push('|---|---|---|');
L.push(`| \`curl -sf -H "Authorization: Bearer $KEY" $URL/finance/summary\` | ${ms(c.curl)} | 1.00× |`);
L.push(`| \`node bin/cr.js finance summary --json\` | ${ms(c.summary)} | ${fx(x(c.summary.median, c.curl.median))} |`);
L.push('');
L.push(`Both printed the same \`data\`: ${c.sameBody ? 'yes' : '**no**'}.`);
L.push('');
L.push(`## 3. Server throughput and latency (${kfmt(small)}-record store, ${CONNS} connections)`);
L.push('');
L.push(
  "The GET scenarios run interleaved (bare, bare with the summary's bytes, summary, nurture, bare, …) against already-running servers. \"server µs/req\" is the server process's CPU time per answered request (and its ratio to the ceiling's): less sensitive to the machine's other load than req/s.",
);
L.push('');
L.push('| route | req/s, median (min–max) | p50 ms | p99 ms | vs ceiling | server µs/req | KB/response | CPU server / client | errors |');
L.push('|---|---|---|---|---|---|---|---|---|');
L.push(rpsRow('bare Hono route, constant envelope (ceiling)', results.hono, null));
L.push(rpsRow("bare Hono route, the summary's bytes as a constant", results.honoBody, results.hono));
L.push(rpsRow('GET /finance/summary', results.summary, results.hono));
L.push(rpsRow('GET /content/nurture-sequences', results.nurture, results.hono));
L.push(rpsRow('POST /content/listeners (durable)', w50, results.hono));
L.push('');
L.push('## 4. Scale');
L.push('');
L.push(
  `Synthetic stores (bench/gen-store.mjs, valid per docs/store-format.md): per revenue record ${Object.entries(PROPORTIONS)
    .map(([k, v]) => `${v} ${k}`)
    .join(
      ', ',
    )}; one owner of every entity, so the finance summary covers every record (about 2.7 % of active records fall in the 7-day invoice-alert window, which makes the response grow with the store). Load time is \`startServer()\` (read, parse, validate, lock, listen) measured in the server process; RSS right after it. Latency p50s are sequential requests on one connection (${(LAT_MS / 1000).toFixed(1)} s or at most 500 GETs / 200 POSTs per run).`,
);
L.push('');
L.push(
  `| revenue records | file MB | load ms | RSS MB (JS heap) | summary p50 ms (KB) | single POST p50 ms | POST req/s, 50 writers | fsyncs / commits | vs ${kfmt(small)} |`,
);
L.push('|---|---|---|---|---|---|---|---|---|');
for (const n of SIZES) {
  const s = results.scale[n];
  L.push(
    `| ${kfmt(n)} | ${fmt(s.fileMb, 1)} | ${range(s.loadMs, 0)} | ${range(s.rssMb, 0)} (${fmt(s.heapMb.median, 0)}) | ${ms(s.summaryP50)} (${fmt(s.summaryKb, 0)}) | ${ms(s.writeP50)} | ${range(s.writes50.rps, 0)} | ${s.writes50.fsyncs} / ${s.writes50.commits ?? 'n/a'} | ${pct(x(s.writes50.rps.median, results.scale[small].writes50.rps.median))} |`,
  );
}
L.push('');
if (SIZES.length > 1) {
  const a = results.scale[small];
  const z = results.scale[big];
  L.push(
    `Growth from ${kfmt(small)} to ${kfmt(big)} (${fx(big / small)} the data): load ${fx(x(z.loadMs.median, a.loadMs.median))}, RSS ${fx(x(z.rssMb.median, a.rssMb.median))}, summary p50 ${fx(x(z.summaryP50.median, a.summaryP50.median))}, single POST p50 ${fx(x(z.writeP50.median, a.writeP50.median))}, POST throughput ${fx(x(z.writes50.rps.median, a.writes50.rps.median))}.`,
  );
  L.push('');
}
L.push(`## 5. Group commit (${kfmt(small)}-record store)`);
L.push('');
L.push(
  'Durable writes: POST /content/listeners; fsyncs counted on the server (file and folder fsyncs through the fs layer). "Lost" = acknowledged ids (201 answers) missing from the data file after a clean stop.',
);
L.push('');
L.push('| server | writers | req/s, median (min–max) | p50 ms | p99 ms | acknowledged | fsyncs | commits | writes per commit | lost |');
L.push('|---|---|---|---|---|---|---|---|---|---|');
for (const w of [1, 10, CONNS]) {
  const r = results.writes[w];
  L.push(
    `| cr serve | ${w} | ${range(r.rps, 0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.acked} | ${r.fsyncs} | ${r.commits ?? 'n/a'} | ${r.commits ? fmt(r.acked / r.commits, 1) : 'n/a'} | ${r.lost} |`,
  );
}
const j = results.jsonServer;
L.push(`| json-server ${j.version} (no fsync) | ${CONNS} | ${range(j.rps, 0)} | ${ms(j.p50)} | ${ms(j.p99)} | ${j.acked} | – | – | – | ${j.lost} |`);
L.push('');
L.push(
  `cr serve, ${CONNS} writers vs 1 writer: ${fx(x(w50.rps.median, w1.rps.median))}; vs json-server: ${fx(x(w50.rps.median, j.rps.median))}. ${storeStatsNote}`,
);
if (j.errors) L.push(`json-server answered ${j.errors} requests with errors (${JSON.stringify(j.status)}).`);
L.push('');
L.push('## Profiles of missed targets');
L.push('');
if (!profiles.length) L.push(PROFILE ? 'No target missed; nothing profiled.' : 'Profiling disabled (BENCH_PROFILE=0).');
for (const p of profiles) {
  L.push(`### ${p.target}`);
  L.push('');
  L.push(
    `${p.label.startsWith('cr ') ? '`node --cpu-prof` of `' + p.label + '`' : 'CPU profile of the server under ' + p.label} (${fmt(p.busyMs, 0)} ms busy, ${fmt(p.idleMs, 0)} ms idle). Self time, share of busy time:`,
  );
  L.push('');
  L.push('| function (file:line) | self ms | share |');
  L.push('|---|---|---|');
  for (const f of p.functions) L.push(`| \`${f.name}\` | ${fmt(f.ms, 1)} | ${fmt(f.pct, 1)} % |`);
  L.push('');
  L.push(
    'By file: ' +
      p.files
        .slice(0, 6)
        .map((f) => `\`${f.name}\` ${fmt(f.pct, 0)} %`)
        .join(', ') +
      '.',
  );
  L.push('');
}
L.push('<!-- analysis -->');
L.push('');
L.push('## Commands');
L.push('');
L.push('```sh');
L.push('npm run bench                      # = npm run build && node bench/run.mjs (full run, < 5 min)');
L.push('BENCH_QUICK=1 node bench/run.mjs   # smoke run (~1 min): short loads, sizes 1k and 10k');
L.push('# knobs: BENCH_LOAD_MS BENCH_REPEATS BENCH_CLI_RUNS BENCH_SIZES=1000,10000,100000 BENCH_PROFILE=0 BENCH_DOC=-');
L.push('node bench/profile.mjs FILE.cpuprofile   # summarize any --cpu-prof output');
L.push('```');
L.push('');
L.push('What each measurement runs:');
L.push('');
L.push('```sh');
L.push('node -e 0');
L.push('node bin/cr.js --version');
L.push('node bin/cr.js --help');
L.push('CR_BASE_URL=http://127.0.0.1:$PORT/api/v1 CR_API_KEY=$KEY CR_CONFIG_DIR=$(mktemp -d) node bin/cr.js finance summary --json');
L.push('curl -sf -o /dev/null -H "Authorization: Bearer $KEY" http://127.0.0.1:$PORT/api/v1/finance/summary');
L.push('node bench/server-child.mjs cr STORE.json   # startServer({storePath, host: "127.0.0.1", port: 0, rateLimit: 1e9, log: false, fs: <counting>})');
L.push('node bench/server-child.mjs hono           # new Hono().get("/api/v1/bare", c => c.json({success: true, data: {...}})) on @hono/node-server');
L.push(`node node_modules/json-server/lib/bin.js db.json --port $PORT --host 127.0.0.1   # db.json = {"listeners": []}; POST /listeners`);
L.push(
  'BENCH_PROFILE_OUT=F.cpuprofile BENCH_PROFILE_FROM=ready|start node bench/server-child.mjs cr STORE.json   # profiles of missed server targets (V8 CPU profiler via node:inspector, like --cpu-prof but only over the traffic, or only over the store load)',
);
L.push('node --cpu-prof --cpu-prof-interval=100 bin/cr.js …                         # profiles of missed CLI targets');
L.push('```');
L.push('');
L.push(
  `Load requests: \`GET /api/v1/finance/summary\`, \`GET /api/v1/content/nurture-sequences\` (default page of 50), \`POST /api/v1/content/listeners\` with \`${listenerBody(0)}\`; all with \`Authorization: Bearer <admin key of the first website>\`. The rate limit is raised to 1e9 for the load tests.`,
);
L.push('');

let doc = L.join('\n');
// Keep hand-written analysis (between the markers) across runs.
try {
  const old = readFileSync(DOC, 'utf8');
  const m = old.match(/<!-- analysis -->\n([\s\S]*?)<!-- \/analysis -->/);
  if (m) doc = doc.replace('<!-- analysis -->', `<!-- analysis -->\n${m[1]}<!-- /analysis -->`);
} catch {
  /* first run */
}
if (!doc.includes('<!-- /analysis -->')) doc = doc.replace('<!-- analysis -->', '<!-- analysis -->\n<!-- /analysis -->');
if (DOC !== '-') writeFileSync(DOC, doc);
console.log(doc.replace(/<!-- \/?analysis -->\n?/g, ''));
log(`done in ${totalS.toFixed(0)} s${DOC !== '-' ? `; wrote ${DOC}` : ''}`);
