/**
 * `npm run bench:pg`: the PostgreSQL store's figures (docs/shared-sandbox.md), beside the JSON
 * file store's on the same machine in the same run:
 *   - `cr local copy`'s loader (COPY) with BENCH_PG_LOAD revenue records (default 2,000,000);
 *   - GET /finance/summary p50 with BENCH_PG_SUMMARY revenue records (default 1,000,000);
 *   - durable POST ads create, 50 writers: over three `cr serve` on one database, and over one
 *     `cr serve` on a JSON file, each after the same warm-up; every acknowledged id checked in
 *     the store afterwards (lost).
 * Starts a throw-away cluster (scripts/pg-cluster.sh) unless CR_BENCH_PG_URL names a server.
 * All traffic on 127.0.0.1, bounded in time. Writes its section of docs/benchmarks.md
 * (bench/doc-writer.mjs) unless BENCH_DOC=-.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { runLoad } from './load.mjs';
import { generateStore } from './gen-store.mjs';
import { writeBenchSection } from './doc-writer.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const env = process.env;
const LOAD_N = Number(env.BENCH_PG_LOAD ?? 2_000_000);
const SUMMARY_N = Number(env.BENCH_PG_SUMMARY ?? 1_000_000);
const WRITE_MS = Number(env.BENCH_PG_WRITE_MS ?? 10_000);
const WARM_MS = Number(env.BENCH_PG_WARM_MS ?? 2_000);
const DOC = env.BENCH_DOC ?? join(ROOT, 'docs', 'benchmarks.md');
const { PgStore } = await import(join(ROOT, 'dist/src/server/store-pg/pg-store.js'));
const { loadInto } = await import(join(ROOT, 'dist/src/server/store-pg/bulk-load.js'));

const dir = mkdtempSync(join(tmpdir(), 'cr-bench-pg-'));
chmodSync(dir, 0o755);
const script = join(ROOT, 'scripts', 'pg-cluster.sh');
const server = env.CR_BENCH_PG_URL ?? execFileSync('bash', [script, 'start', join(dir, 'cluster')], { encoding: 'utf8' }).trim();
const children = [];

async function database(name) {
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A store of `n` revenue records (bench/gen-store.mjs) loaded into a new database; seconds taken by the load. */
async function loaded(name, n, shape = () => {}) {
  const url = await database(name);
  const made = generateStore(n);
  shape(made);
  const store = await PgStore.open(url, { max: 2 });
  const t0 = performance.now();
  await loadInto(store, made.data);
  const seconds = (performance.now() - t0) / 1000;
  await store.close();
  return {
    url,
    seconds,
    key: made.key,
    websiteId: made.websiteId,
    records: Object.values(made.data).reduce((s, v) => s + (Array.isArray(v) ? v.length : 0), 0),
  };
}

/** `cr serve` over `store` on 127.0.0.1:0; resolves with its origin once it prints its URL. */
function serve(store) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/cr.js'), 'serve', '--store', store, '--port', '0', '--rate-limit', '100000000'], {
      env: { PATH: env.PATH, HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\/api\/v1$/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr.resume();
    child.once('exit', (code) => reject(new Error(`cr serve exited ${code}`)));
  });
}

const ads = (websiteId) => (i) =>
  JSON.stringify({
    website_id: websiteId,
    name: `bench ad ${i}`,
    ad_format: 'single_image',
    destination_url: 'https://example.com/landing',
    headline: 'H',
    platform: 'meta',
  });

/** 50 writers spread over the origins for WRITE_MS; acknowledged ids. */
async function writes(origins, key, websiteId) {
  const per = Math.ceil(50 / origins.length);
  const burst = (durationMs) =>
    Promise.all(
      origins.map((origin) =>
        runLoad({
          origin,
          path: '/api/v1/content/ads/creatives/create',
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body: ads(websiteId),
          connections: per,
          durationMs,
          ackId: (j) => j?.data?.id,
        }),
      ),
    );
  // Both stores first get WARM_MS of the same load (connections opened, code compiled); its
  // acknowledged writes are checked for loss too, but only the measured WRITE_MS counts.
  const warm = await burst(WARM_MS);
  const runs = await burst(WRITE_MS);
  const counted = runs.flatMap((r) => r.ids).filter(Boolean);
  return { ids: [...warm.flatMap((r) => r.ids), ...runs.flatMap((r) => r.ids)], perSecond: counted.length / (WRITE_MS / 1000) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { load: LOAD_N, summaryN: SUMMARY_N, loadAvg: loadavg()[0], rowLoad: {} };
/** The machine's one-minute load average when a row's measurement ends (2 cores, shared: the figures move with it). */
const noteLoad = (row) => {
  results.rowLoad[row] = loadavg()[0];
};
try {
  const big = await loaded('cr_bench_load', LOAD_N);
  results.loadSeconds = big.seconds;
  results.loadRecords = big.records;
  noteLoad('load');
  console.log(`load: ${big.records} records (${LOAD_N} revenue) in ${big.seconds.toFixed(1)} s`);
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe('DROP DATABASE IF EXISTS cr_bench_load WITH (FORCE)');
  await admin.end();

  // A shared sandbox holds many owners: the bench key's owner keeps 1 business entity in 100
  // (1 % of the revenue records), another owner the other 99. The first is the row the target
  // is for (the answer must not grow with the records of others); the second shows one answer
  // covering nearly every record (some 19,000 invoice alerts, 16 MB at 1,000,000).
  const bigKey = `cr_${randomBytes(20).toString('hex')}`;
  const s = await loaded('cr_bench_summary', SUMMARY_N, (made) => {
    const d = made.data;
    const big = { ...d.users[0], id: `${made.ownerId}-big`, email: 'big@bench.example' };
    d.users.push(big);
    d.business_entities.forEach((e, i) => {
      if (i % 100 !== 0) e.owner_id = big.id;
    });
    const k = d.api_keys[0];
    d.api_keys.push({ ...k, id: `${k.id}-big`, name: 'bench owner of 99 %', user_id: big.id, key_sha256: createHash('sha256').update(bigKey).digest('hex') });
  });
  // What autovacuum does soon after a large load (and docs/shared-sandbox.md advises after a
  // copy): the writes below are measured on a settled database, not on the load's aftermath.
  const settle = postgres(s.url, { max: 1, onnotice: () => {} });
  await settle.unsafe('VACUUM (ANALYZE)');
  await settle.end();
  const origins = [await serve(s.url), await serve(s.url), await serve(s.url)];
  const summaryTimes = async (key, n) => {
    const times = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const res = await fetch(`${origins[0]}/api/v1/finance/summary`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`summary answered ${res.status}`);
      times.push(performance.now() - t0);
      results.summaryBytes = body.byteLength;
    }
    return times;
  };
  results.bigSummaryP50 = median(await summaryTimes(bigKey, 20));
  results.bigSummaryBytes = results.summaryBytes;
  console.log(`GET /finance/summary at ${SUMMARY_N}, owner of 99 %: p50 ${results.bigSummaryP50.toFixed(1)} ms (${results.bigSummaryBytes} bytes)`);
  noteLoad('bigSummary');
  const times = await summaryTimes(s.key, 200);
  results.summaryP50 = median(times);
  noteLoad('summary');
  console.log(`GET /finance/summary at ${SUMMARY_N}, owner of 1 %: p50 ${results.summaryP50.toFixed(1)} ms (${results.summaryBytes} bytes)`);

  const pgWrites = await writes(origins, s.key, s.websiteId);
  const check = await PgStore.open(s.url, { max: 2 });
  const have = new Set((await check.sql`SELECT id FROM cr_records WHERE collection = 'ad_creatives'`).map((r) => r.id));
  await check.close();
  results.pgWrites = pgWrites.perSecond;
  noteLoad('pgWrites');
  results.pgLost = pgWrites.ids.filter((id) => !have.has(id)).length;
  console.log(`POST ads, 50 writers over 3 servers on PostgreSQL: ${pgWrites.perSecond.toFixed(0)}/s, lost ${results.pgLost}`);

  const file = join(dir, 'store.json');
  const small = generateStore(1000);
  writeFileSync(file, JSON.stringify(small.data));
  const jsonOrigin = await serve(file);
  const jsonWrites = await writes([jsonOrigin], small.key, small.websiteId);
  results.jsonWrites = jsonWrites.perSecond;
  noteLoad('jsonWrites');
  console.log(`POST ads, 50 writers over 1 server on a JSON file: ${jsonWrites.perSecond.toFixed(0)}/s`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (!env.CR_BENCH_PG_URL) execFileSync('bash', [script, 'stop', join(dir, 'cluster')]);
  rmSync(dir, { recursive: true, force: true });
}

const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} KB`);
const la = (row) => results.rowLoad[row]?.toFixed(1) ?? '–';
const section = `## PostgreSQL store (\`npm run bench:pg\`, ${new Date().toISOString().slice(0, 10)}, load average ${results.loadAvg.toFixed(1)})

| row | PostgreSQL | JSON file | target | load average after |
|---|---|---|---|---|
| load ${LOAD_N.toLocaleString('en')} revenue records (${results.loadRecords.toLocaleString('en')} records in all) with \`cr local copy\`'s loader | ${results.loadSeconds.toFixed(1)} s | cannot hold them (one JSON document) | < 120 s | ${la('load')} |
| GET /finance/summary at ${SUMMARY_N.toLocaleString('en')} revenue records, an owner of 1 % of them (${kb(results.summaryBytes)} answer), p50 of 200 | ${results.summaryP50.toFixed(1)} ms | – | ≤ 50 ms | ${la('summary')} |
| the same, the owner of the other 99 % (${kb(results.bigSummaryBytes)} answer), p50 of 20 | ${results.bigSummaryP50.toFixed(1)} ms | – | – | ${la('bigSummary')} |
| durable POST ads create, 50 writers (PostgreSQL: over three servers) | ${results.pgWrites.toFixed(0)}/s, lost ${results.pgLost} | ${results.jsonWrites.toFixed(0)}/s (one server) | ≥ 3,000/s, 0 lost | ${la('pgWrites')} / ${la('jsonWrites')} |`;
console.log(section);
if (DOC !== '-') writeBenchSection(DOC, 'pg', section);
