/**
 * docs/benchmarks.md from one run's figures (bench/run.mjs measures, this module only writes):
 * machine and run, targets, before and after, the five sections, profiles of missed targets and
 * the commands: the page's `run` section (bench/doc-writer.mjs writes the page).
 */
import { loadavg } from 'node:os';
import { PROPORTIONS } from './gen-store.mjs';
import { fmt, range, fx, pct, kfmt, div as x, keyFigures } from './stats.mjs';

/** Server CPU per answered request, µs: steadier than req/s on a shared machine. */
export const cpuPerRequest = (r) => ((r.serverCpuPct / 100) * 1e6) / r.rps.median;

/**
 * @param {object} o  what bench/run.mjs measured and how: results, machine, targets, profiles,
 *   the run's settings (config) and derived figures (vsNodeHttp), the request bodies, totalS
 * @returns {string} the report, Markdown from its first `##` heading
 */
export function renderReport(o) {
  const { results, machine, targets, profiles, config, vsNodeHttp, listenerBody, adBody, totalS } = o;
  const { QUICK, REPEATS, RUN_MS, CLI_RUNS, CLI_WARMUP, SIZES, CONNS, LAT_MS, PROFILE } = config;
  const { c, small, big, w50, w1, ads } = keyFigures(results, SIZES, CONNS);
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
  L.push('## Machine and run');
  L.push('');
  L.push('Every timing is the median of several runs with (min–max); every ratio compares figures measured in the same run.');
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
    '"Before" is the figures these targets were set from (earlier measurements on this machine, medians of paired runs); "after" is this run, every ratio from figures measured side by side in it.',
  );
  L.push('');
  L.push('| measure | before | after (this run) | target | result |');
  L.push('|---|---|---|---|---|');
  const verdict = (id) => (targets.find((t) => t.id === id).ok ? 'met' : '**missed**');
  L.push(
    `| \`cr finance summary --json\` against a running server / \`node -e 0\` | 1.75× | ${fx(x(c.summary.median, c.floor.median))} (${fmt(c.summary.median, 0)} ms) | ≤ 1.6× | ${verdict('summary-cli')} |`,
  );
  L.push(
    `| \`cr finance summary --local --json\` / \`node -e 0\` | 3.6× (~400 ms) | ${fx(x(c.local.median, c.floor.median))} (${fmt(c.local.median, 0)} ms) | ≤ 2.2× | ${verdict('local-cli')} |`,
  );
  L.push(
    `| \`GET /finance/summary\`, ${CONNS} connections, vs a bare node:http route sending the same bytes | 0.29–0.37× | ${fx(vsNodeHttp.median)} (${fx(vsNodeHttp.min)}–${fx(vsNodeHttp.max)} over the paired runs; ${fmt(results.summary.rps.median, 0)} vs ${fmt(results.nodeBody.rps.median, 0)} req/s; server CPU ${fmt(cpuPerRequest(results.summary), 0)} vs ${fmt(cpuPerRequest(results.nodeBody), 0)} µs/req) | ≥ 0.6× | ${verdict('summary-vs-nodehttp')} |`,
  );
  L.push(
    `| durable POST ads create, ${CONNS} writers, ${kfmt(small)} records | 4,300–4,400/s | ${range(ads.rps, 0)}/s, lost ${ads.lost ?? 'n/a'} of ${ads.acked} acknowledged | ≥ 8,000/s, none lost | ${verdict('ads-writes')} |`,
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
    "The GET scenarios run interleaved (bare Hono, bare Hono with the summary's bytes, bare node:http with the summary's bytes, summary, nurture, bare Hono, …) against already-running servers, each bare route in a server process of its own. \"server µs/req\" is the server process's CPU time per answered request (and its ratio to the ceiling's): less sensitive to the machine's other load than req/s. The write rows come from section 5 (a fresh store and server per run).",
  );
  L.push('');
  L.push('| route | req/s, median (min–max) | p50 ms | p99 ms | vs ceiling | server µs/req | KB/response | CPU server / client | errors |');
  L.push('|---|---|---|---|---|---|---|---|---|');
  L.push(rpsRow('bare Hono route, constant envelope (ceiling)', results.hono, null));
  L.push(rpsRow("bare Hono route, the summary's bytes as a constant", results.honoBody, results.hono));
  L.push(rpsRow("bare node:http route, the summary's bytes as a constant", results.nodeBody, results.hono));
  L.push(rpsRow('GET /finance/summary', results.summary, results.hono));
  L.push(rpsRow('GET /content/nurture-sequences', results.nurture, results.hono));
  L.push(rpsRow('POST /content/listeners (durable)', w50, results.hono));
  L.push(rpsRow('POST /content/ads/creatives/create (durable)', ads, results.hono));
  L.push('');
  L.push(
    `GET /finance/summary vs the bare node:http route with the same bytes: ${fx(vsNodeHttp.median)} req/s (median of the ${vsNodeHttp.n} paired runs, ${fx(vsNodeHttp.min)}–${fx(vsNodeHttp.max)}; ratio of the medians ${fx(x(results.summary.rps.median, results.nodeBody.rps.median))}), ${fx(x(cpuPerRequest(results.summary), cpuPerRequest(results.nodeBody)))} the server CPU per request.`,
  );
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
    'Durable writes: POST /content/listeners and POST /content/ads/creatives/create, each run on a fresh copy of the store and a fresh server; fsyncs counted on the server (file and folder fsyncs through the fs layer). "Lost" = acknowledged ids (2xx answers) missing from the store after a clean stop, the store re-opened as a server opens it (`Store.open`: snapshot, then any journal replayed); for json-server, missing from its db file.',
  );
  L.push('');
  L.push('| server, route | writers | req/s, median (min–max) | p50 ms | p99 ms | acknowledged | fsyncs | commits | writes per commit | lost |');
  L.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, w, r] of [
    ...[1, 10, CONNS].map((n) => ['POST /content/listeners', n, results.writes[n]]),
    ['POST /content/ads/creatives/create', CONNS, ads],
  ]) {
    L.push(
      `| cr serve, ${name} | ${w} | ${range(r.rps, 0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.acked} | ${r.fsyncs} | ${r.commits ?? 'n/a'} | ${r.commits ? fmt(r.acked / r.commits, 1) : 'n/a'} | ${r.lost} |`,
    );
  }
  const j = results.jsonServer;
  L.push(
    `| json-server ${j.version} (no fsync), POST /listeners | ${CONNS} | ${range(j.rps, 0)} | ${ms(j.p50)} | ${ms(j.p99)} | ${j.acked} | – | – | – | ${j.lost} |`,
  );
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
  L.push('## Commands');
  L.push('');
  L.push('```sh');
  L.push('npm run bench                      # = npm run build && node bench/run.mjs (full run, < 5 min)');
  L.push('BENCH_QUICK=1 node bench/run.mjs   # smoke run (~1 min): short loads, sizes 1k and 10k');
  L.push('BENCH_ONLY=reads,writes node bench/run.mjs   # only these sections (cli reads writes json scale), figures as JSON, no report');
  L.push('# knobs: BENCH_LOAD_MS BENCH_REPEATS BENCH_CLI_RUNS BENCH_SIZES=1000,10000,100000 BENCH_PROFILE=0 BENCH_DOC=- BENCH_ONLY');
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
  L.push(
    "BENCH_BODY=<summary's bytes> node bench/server-child.mjs nodehttp   # http.createServer: GET /api/v1/bare-body answers BENCH_BODY (application/json, content-length)",
  );
  L.push(`node node_modules/json-server/lib/bin.js db.json --port $PORT --host 127.0.0.1   # db.json = {"listeners": []}; POST /listeners`);
  L.push(
    'BENCH_PROFILE_OUT=F.cpuprofile BENCH_PROFILE_FROM=ready|start node bench/server-child.mjs cr STORE.json   # profiles of missed server targets (V8 CPU profiler via node:inspector, like --cpu-prof but only over the traffic, or only over the store load)',
  );
  L.push('node --cpu-prof --cpu-prof-interval=100 bin/cr.js …                         # profiles of missed CLI targets');
  L.push('```');
  L.push('');
  L.push(
    `Load requests: \`GET /api/v1/finance/summary\`, \`GET /api/v1/content/nurture-sequences\` (default page of 50), \`POST /api/v1/content/listeners\` with \`${listenerBody(0)}\`, \`POST /api/v1/content/ads/creatives/create\` with \`${adBody('<website of the key>')(0)}\`; all with \`Authorization: Bearer <admin key of the first website>\`. The rate limit is raised to 1e9 for the load tests.`,
  );
  L.push('');

  return L.join('\n');
}
