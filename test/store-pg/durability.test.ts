import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { spawnProcess } from '../helpers/process.js';
import { soak } from '../helpers/soak.js';

/**
 * Nothing answered 200 is lost (docs/shared-sandbox.md): under write load, a server killed
 * with SIGKILL, and PostgreSQL itself restarted (fast shutdown). This file runs a cluster of
 * its own, since it restarts it. Load: bounded count and time, 127.0.0.1 only: WRITES a test,
 * 300 in `npm test`, 1,500 in `npm run test:soak`; the kill and the restart come once the
 * first 100 writes are answered 200, so they land in the middle of the load however fast the
 * machine is.
 */
const WRITES = soak(300, 1_500);
const FIRST = 100;
const SCRIPT = join(ROOT, 'scripts', 'pg-cluster.sh');
/** The cluster script, as a child of its own; throws with its stderr when it fails. */
async function cluster(command: string, dir: string, folder: string): Promise<string> {
  const r = await spawnProcess('bash', [SCRIPT, command, folder], { env: { HOME: dir }, timeoutMs: 120_000 });
  if (r.exitCode !== 0) throw new Error(`scripts/pg-cluster.sh ${command} failed: ${r.stderr}`);
  return String(r.stdout).trim();
}
const body = JSON.stringify({ name: 'Feed', source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } });

interface LoadResult {
  acknowledged: string[];
  refused: number;
}

/**
 * `clients` loops POSTing listeners round-robin over the live servers until `count` are sent or
 * `ms` pass; `onFirst` is called once, when the first FIRST writes are acknowledged.
 */
async function writeLoad(servers: ServeProcess[], live: () => ServeProcess[], count: number, ms: number, onFirst: () => void, clients = 30): Promise<LoadResult> {
  const acknowledged: string[] = [];
  let refused = 0;
  let sent = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (sent < count && Date.now() < until) {
        const targets = live();
        const s = targets[(sent + c) % targets.length]!;
        sent++;
        try {
          const res = await fetch(`${s.baseUrl}/content/listeners?website_id=${IDS.W1}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          const json = (await res.json().catch(() => undefined)) as { data?: { id?: string } } | undefined;
          if (res.status === 200 && json?.data?.id) {
            if (acknowledged.push(json.data.id) === FIRST) onFirst();
          } else refused++;
        } catch {
          refused++; // connection reset by the killed server, or a time-out: not acknowledged
        }
      }
    }),
  );
  void servers;
  return { acknowledged, refused };
}

describe('acknowledged writes on PostgreSQL', () => {
  const dir = tempDir('cr-pg-durable-');
  // The cluster runs as the postgres user (scripts/pg-cluster.sh), which must reach its folder.
  chmodSync(dir, 0o755);
  const folder = join(dir, 'cluster');
  let url: string;
  let servers: ServeProcess[] = [];
  let store: PgStore;

  beforeAll(async () => {
    url = await cluster('start', dir, folder);
    store = await PgStore.open(url, { max: 2 });
    await loadInto(store, JSON.parse(readFileSync(FIXTURE, 'utf8')));
    servers = await Promise.all([0, 1, 2].map(() => spawnServe(['--store', url, '--rate-limit', '1000000'], { env: { CR_NOW: NOW } })));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.close();
    await cluster('stop', dir, folder).catch(() => undefined);
  });

  const stored = async () => new Set((await store.sql`SELECT id FROM cr_records WHERE collection = 'content_listeners'`).map((r) => r.id as string));

  it('keeps every write answered 200 when one of three servers is killed with SIGKILL under load', async () => {
    const victim = servers[1]!;
    let killed = false;
    const live = () => (killed ? servers.filter((s) => s !== victim) : servers);
    const { acknowledged } = await writeLoad(servers, live, WRITES, 30_000, () => {
      victim.kill('SIGKILL');
      killed = true;
    });
    expect((await victim.exited).signal).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThan(FIRST);
    const have = await stored();
    expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
    servers = servers.filter((s) => s !== victim);
  }, 60_000);

  it('keeps every write answered 200 across a PostgreSQL restart under load, and serves again after it', async () => {
    let restarted: Promise<string> | undefined;
    const { acknowledged, refused } = await writeLoad(
      servers,
      () => servers,
      WRITES,
      40_000,
      () => {
        restarted = cluster('restart', dir, folder);
      },
    );
    expect(restarted, 'PostgreSQL was restarted under load').toBeDefined();
    await restarted;
    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    const have = await stored();
    expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
    expect(acknowledged.length + refused).toBeGreaterThan(0);
    for (const s of servers) {
      const res = await fetch(`${s.baseUrl}/content/listeners?website_id=${IDS.W1}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(200);
    }
  }, 120_000);
});
