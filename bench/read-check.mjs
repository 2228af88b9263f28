/**
 * `node bench/read-check.mjs` (after `npm run build`): what the JSON store's check that its
 * lock is still this server's costs each read (src/server/store/json-store.ts, ownedReads;
 * docs/benchmarks-analysis.md "Reads check the lock"). One process, one 1k store, the reads an
 * authenticated GET makes (the key by its sha256, the key's website): under its lock (one
 * stat() of the lock file per read while it is unchanged) against the same store opened without
 * a lock (no check). Alternating rounds; prints ns per request, median of BENCH_ROUNDS.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateStore, storeText } from './gen-store.mjs';

const { JsonStore } = await import('../dist/src/server/store/json-store.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const N = Number(process.env.BENCH_READS ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'cr-bench-readcheck-'));
try {
  const g = generateStore(1000);
  const path = join(dir, 'store.json');
  writeFileSync(path, storeText(g.data));
  const sha = createHash('sha256').update(g.key).digest('hex');
  const locked = await JsonStore.open(path);
  const copy = join(dir, 'copy.json');
  writeFileSync(copy, storeText(g.data));
  const unlocked = await JsonStore.open(copy, { lock: false });
  const run = (store) => {
    const t0 = process.hrtime.bigint();
    let found = 0;
    for (let i = 0; i < N; i++) {
      const k = store.keyBySha256(sha);
      if (k && store.website(k.website_id ?? '')) found++;
    }
    const ns = Number(process.hrtime.bigint() - t0) / N;
    if (found !== N) throw new Error('the reads found nothing');
    return ns;
  };
  run(locked);
  run(unlocked);
  const a = [];
  const b = [];
  for (let r = 0; r < ROUNDS; r++) {
    b.push(run(unlocked));
    a.push(run(locked));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(
    `| reads (key + website) | no check ${median(b).toFixed(0)} ns | with the lock check ${median(a).toFixed(0)} ns | +${(median(a) - median(b)).toFixed(0)} ns a request |`,
  );
  await locked.close();
  await unlocked.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
