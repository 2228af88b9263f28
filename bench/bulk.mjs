/**
 * `npm run bench:bulk`: bulk scheduling of 1,000 rows with `cr posts schedule --from FILE
 * --concurrency 8` against a shell loop running `cr posts schedule ID --at WHEN` once per
 * row, over the same rows, against one `cr serve` (bin/cr.js, 127.0.0.1, port 0), in one run.
 * Prints both wall times, rows/s and the ratio, and a markdown row for docs/benchmarks.md.
 *
 * Knobs: BENCH_BULK_ROWS=N (default 1000), BENCH_BULK_CONCURRENCY=N (default 8).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateStore, storeText } from './gen-store.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const BIN = join(ROOT, 'bin/cr.js');
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_BULK_CONCURRENCY ?? 8);
const AT = '2099-06-01T09:00:00Z';

const tmp = mkdtempSync(join(tmpdir(), 'cr-bench-bulk-'));
let server;
const cleanup = () => {
  server?.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));

const { data, key, websiteId } = generateStore(1000);
const ids = Array.from({ length: ROWS }, (_, i) => `b0000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
const ts = '2026-01-01T00:00:00.000Z';
data.social_posts = ids.map((id, i) => ({ id, websiteId, status: 'draft', content: `bulk ${i}`, scheduledAt: null, createdAt: ts, updatedAt: ts }));
const storePath = join(tmp, 'store.json');
writeFileSync(storePath, storeText(data));
const plan = join(tmp, 'plan.csv');
writeFileSync(plan, ['id,at', ...ids.map((id) => `${id},${AT}`)].join('\n') + '\n');
const idList = join(tmp, 'ids.txt');
writeFileSync(idList, ids.join('\n') + '\n');

server = spawn(process.execPath, [BIN, 'serve', '--store', storePath, '--port', '0', '--rate-limit', '1000000'], {
  env: { PATH: process.env.PATH, HOME: tmp, CR_CONFIG_DIR: join(tmp, 'cfg') },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const baseUrl = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /^(http:\/\/\S+\/api\/v1)$/m.exec(out);
    if (m) resolve(m[1]);
  });
  server.once('exit', (code) => reject(new Error(`cr serve exited ${code}`)));
});
const env = { PATH: process.env.PATH, HOME: tmp, CR_CONFIG_DIR: join(tmp, 'cfg'), CR_BASE_URL: baseUrl, CR_API_KEY: key, NO_COLOR: '1' };

function timed(label, cmd, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${label} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  console.error(`[bench:bulk] ${label}: ${s.toFixed(2)} s`);
  return s;
}

const bulk = timed(`--from, --concurrency ${CONCURRENCY}`, process.execPath, [BIN, 'posts', 'schedule', '--from', plan, '--concurrency', String(CONCURRENCY)]);
const loop = timed('shell loop', 'sh', [
  '-c',
  `while read id; do "$0" "$1" posts schedule "$id" --at "$2" >/dev/null || exit 1; done < "$3"`,
  process.execPath,
  BIN,
  AT,
  idList,
]);

const row = `| bulk scheduling, ${ROWS} rows | \`--from --concurrency ${CONCURRENCY}\`: ${bulk.toFixed(2)} s (${Math.round(ROWS / bulk)} rows/s) | shell loop of \`cr posts schedule\`: ${loop.toFixed(2)} s (${Math.round(ROWS / loop)} rows/s) | ${(loop / bulk).toFixed(1)}× faster |`;
console.log(row);
server.kill('SIGTERM');
process.exit(0);
