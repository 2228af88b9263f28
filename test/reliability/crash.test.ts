import { beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { readdir, stat } from 'node:fs/promises';
import { Store } from '../../src/server/store/store.js';
import { COLLECTIONS } from '../../src/server/store/schema.js';
import { KEYS, fixtureStore } from '../server/helpers.js';
import { bounded, durableServer, ensureBuilt, post, rng, spawnServe } from './durability-helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { soak } from '../helpers/soak.js';

/**
 * Crash safety (docs/reliability.md): the built server takes 1,000 concurrent creates and is
 * killed with SIGKILL at a random moment, 20 times over the same store (2 in `npm test`,
 * 20 in `npm run test:soak`). After each kill the store loads, every create answered 200 is
 * there, and every record validates.
 */
const RUNS = soak(2, 20);
const REQUESTS = 1000;
const CONCURRENCY = 32;
/** Fold the journal every 400 records, so that kills also land in the middle of folds. */
const FOLD_EVERY = 400;

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const cleanups = cleanupsAfterAll();

describe(`crash safety: SIGKILL during 1,000 concurrent creates, ${RUNS} times`, () => {
  it(
    'every acknowledged create survives, no partial record, the store always loads',
    async () => {
      const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1e9);
      const random = rng(seed);
      const store = await fixtureStore();
      cleanups.push(store.cleanup);
      const acked = new Set<string>();
      const summary = {
        seed,
        runs: 0,
        sent: 0,
        acked: 0,
        failedOrCut: 0,
        killedIdle: 0,
        killedMidFold: 0,
        runsWithFolds: 0,
        killAfterMs: [] as number[],
        loadMs: [] as number[],
        journalBytes: [] as number[],
      };
      const t0 = Date.now();
      let lastMtime = (await stat(store.path)).mtimeMs;
      for (let run = 0; run < RUNS; run++) {
        const server = await spawnServe(['--store', store.path], { module: durableServer(FOLD_EVERY) });
        cleanups.push(async () => server.kill('SIGKILL'));
        const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
        const killAfter = Math.floor(random() * 700);
        summary.killAfterMs.push(killAfter);
        const killer = setTimeout(() => server.kill('SIGKILL'), killAfter);
        const results = await bounded(REQUESTS, CONCURRENCY, (i) =>
          post(agent, server.origin, '/api/v1/content/listeners', KEYS.editorW1, { name: `crash-${run}-${i}`, source_type: 'x', query_config: { handle: `h${i}` } }),
        );
        const exit = await server.exited;
        clearTimeout(killer);
        // Kills that landed in a fold leave its temp file (removed by the next start).
        if ((await readdir(store.dir)).some((f) => f.endsWith('.tmp'))) summary.killedMidFold++;
        const fileNow = await stat(store.path);
        if (fileNow.mtimeMs !== lastMtime) summary.runsWithFolds++;
        lastMtime = fileNow.mtimeMs;
        agent.destroy();
        // Every request ends either acknowledged (200) or failed on the wire; nothing else.
        for (const r of results) {
          expect([0, 200]).toContain(r.status);
          if (r.status === 200) acked.add(r.json.data.id);
        }
        summary.sent += REQUESTS;
        summary.acked += results.filter((r) => r.status === 200).length;
        summary.failedOrCut += results.filter((r) => r.status !== 200).length;
        expect(exit.signal).toBe('SIGKILL');
        if (results.every((r) => r.status === 200)) summary.killedIdle++;

        // Restart: the store loads (snapshot + journal replay), every acknowledged id is there.
        const t = Date.now();
        const reopened = await Store.open(store.path);
        summary.loadMs.push(Date.now() - t);
        summary.journalBytes.push(reopened.stats().journalBytes);
        const listeners = reopened.list('content_listeners');
        const ids = new Set(listeners.map((l) => l.id));
        expect(ids.size).toBe(listeners.length); // no record applied twice
        for (const id of acked) expect(ids.has(id)).toBe(true);
        for (const l of listeners) expect(COLLECTIONS.content_listeners.safeParse(l).success).toBe(true);
        // Leave it as a crash would (no fold on close), for the next server to start from.
        await reopened.abandon();
        summary.runs++;
      }
      const leftovers = (await readdir(store.dir)).filter((f) => f.endsWith('.tmp'));
      expect(leftovers).toEqual([]);
      console.log(`crash test: ${JSON.stringify({ ...summary, totalMs: Date.now() - t0 })}`);
    },
    soak(60_000, 240_000),
  );
});
