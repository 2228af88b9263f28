import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { spawnProcess } from '../helpers/process.js';
import { soak } from '../helpers/soak.js';

/**
 * Nothing answered 200 is lost (docs/shared-sandbox.md, docs/reliability.md "PostgreSQL:
 * connections lost"): under write load, a server killed with SIGKILL, PostgreSQL itself
 * restarted (fast shutdown), and the servers' backends terminated (pg_terminate_backend). The
 * last two also run transactions (a post scheduled: a patch; the finance summary: a read-only
 * snapshot) as the connections go, and a last test terminates a connection while it opens.
 * Before src/server/store-pg/transaction.ts and CLIENT_OPTIONS
 * (src/server/store-pg/connection.ts), each of these could end `cr serve`: the client wrote a
 * transaction's ROLLBACK on a socket it had already let go of, or lost its array-type query in
 * a rejection nobody handled. Every server stays up, answers each request 200 or 503
 * STORE_UNAVAILABLE, and serves again after. This file runs a cluster of its own, since it
 * restarts it. Load: bounded count and time, 127.0.0.1 only: WRITES a test, 300 in `npm test`,
 * 1,500 in `npm run test:soak`; the kill, the restart and the terminations come once the first
 * 100 requests are answered 200, so they land in the middle of the load however fast the
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
const headers = { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' };

/**
 * What one request of the load does: a create (one INSERT), a post scheduled (a transaction:
 * SELECT … FOR UPDATE, then UPDATE), the finance summary (a read-only transaction).
 */
type Kind = 'create' | 'schedule' | 'finance';
const MIXED: Kind[] = ['create', 'schedule', 'finance'];

/** Every time a schedule of this file asked for. */
const asked = new Set<string>();

/** The request of a kind; a schedule names its own time, the n-th second of a day ahead of NOW. */
function requestOf(kind: Kind, n: number): { path: string; init: RequestInit } {
  if (kind === 'finance') return { path: '/finance/summary', init: { headers } };
  if (kind === 'create') return { path: `/content/listeners?website_id=${IDS.W1}`, init: { method: 'POST', headers, body } };
  const when = new Date(Date.parse(NOW) + 86_400_000 + n * 1000).toISOString();
  asked.add(when);
  return { path: `/social/posts/${IDS.postDraft}/schedule`, init: { method: 'POST', headers, body: JSON.stringify({ scheduled_at: when }) } };
}

interface LoadResult {
  /** Ids of the creates answered 200. */
  acknowledged: string[];
  refused: number;
  /** How many answers of each kind and status: `schedule 200`, `finance 503 STORE_UNAVAILABLE`, `create no answer`. */
  answers: Record<string, number>;
}

/**
 * `clients` loops send requests round-robin over the live servers until `count` are sent or
 * `ms` pass, client c those of kind `kinds[c % kinds.length]`; `onFirst` is called once, when
 * the first FIRST requests are answered 200.
 */
async function load(live: () => ServeProcess[], count: number, ms: number, onFirst: () => void, kinds: Kind[] = ['create'], clients = 30): Promise<LoadResult> {
  const acknowledged: string[] = [];
  const answers: Record<string, number> = {};
  let refused = 0;
  let ok = 0;
  let sent = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const kind = kinds[c % kinds.length]!;
      while (sent < count && Date.now() < until) {
        const targets = live();
        const s = targets[(sent + c) % targets.length]!;
        const { path, init } = requestOf(kind, sent++);
        let answer: string;
        try {
          const res = await fetch(`${s.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
          const json = (await res.json().catch(() => undefined)) as { code?: string; data?: { id?: string } } | undefined;
          answer = `${res.status}${json?.code ? ` ${json.code}` : ''}`;
          if (res.status === 200) {
            if (++ok === FIRST) onFirst();
            if (kind === 'create' && json?.data?.id) acknowledged.push(json.data.id);
          }
          if (res.status !== 200 && kind === 'create') refused++;
        } catch {
          answer = 'no answer'; // connection reset by the killed server, or a time-out: not acknowledged
          if (kind === 'create') refused++;
        }
        answers[`${kind} ${answer}`] = (answers[`${kind} ${answer}`] ?? 0) + 1;
      }
    }),
  );
  return { acknowledged, refused, answers };
}

/**
 * Answered with anything but 200 or 503 STORE_UNAVAILABLE: an internal error. A request the
 * client gave up on (10 s) is not one: after the database closed a connection while a write on
 * it was still queued, postgres 3.4.9 can take its connect_timeout (30 s) to open it again.
 */
const unexpected = (answers: Record<string, number>) => Object.keys(answers).filter((a) => !/ (200|503 STORE_UNAVAILABLE|no answer)$/.test(a));

/**
 * Each server answers a create, a post scheduled and the finance summary with 200 again, each
 * tried until it is (30 tries at most, all kinds and servers at once). Until then a request can
 * get 503: postgres 3.4.9 keeps the error of a connection the database ended in the middle of a
 * statement, and fails with it the first statement the connection is opened again for; and a
 * connection closed with a write still queued in the client can take its connect_timeout (30 s)
 * to open again.
 */
async function servingAgain(servers: ServeProcess[]): Promise<string[]> {
  const one = async (s: ServeProcess, kind: Kind) => {
    let status = 0;
    for (let attempt = 0; attempt < 30 && status !== 200; attempt++) {
      const { path, init } = requestOf(kind, 100_000 + attempt);
      status = (await fetch(`${s.baseUrl}${path}`, init)).status;
    }
    return `${kind} ${status}`;
  };
  return (await Promise.all(servers.map((s) => Promise.all(MIXED.map((kind) => one(s, kind)))))).flat();
}
const allServing = (servers: ServeProcess[]) => servers.flatMap(() => MIXED.map((kind) => `${kind} 200`));

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
  /** The post the schedules patch: scheduled, at one of the times asked for (a schedule is one transaction, whole or not at all). */
  const scheduledPost = async () => {
    const [post] = await store.sql`SELECT body->>'status' AS status, body->>'scheduledAt' AS at FROM cr_records WHERE collection = 'social_posts' AND id = ${IDS.postDraft}`;
    return { status: post?.status, asked: asked.has(post?.at as string) };
  };

  it('keeps every write answered 200 when one of three servers is killed with SIGKILL under load', async () => {
    const victim = servers[1]!;
    let killed = false;
    const live = () => (killed ? servers.filter((s) => s !== victim) : servers);
    const { acknowledged } = await load(live, WRITES, 30_000, () => {
      victim.kill('SIGKILL');
      killed = true;
    });
    expect((await victim.exited).signal).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThan(FIRST);
    const have = await stored();
    expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
    servers = servers.filter((s) => s !== victim);
  }, 60_000);

  it('keeps every write answered 200 across a PostgreSQL restart under load, transactions included, and serves again after it', async () => {
    let restarted: Promise<string> | undefined;
    const { acknowledged, refused, answers } = await load(
      () => servers,
      WRITES,
      40_000,
      () => {
        restarted = cluster('restart', dir, folder);
      },
      MIXED,
    );
    expect(restarted, 'PostgreSQL was restarted under load').toBeDefined();
    await restarted;
    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    expect(unexpected(answers), JSON.stringify(answers)).toEqual([]);
    const have = await stored();
    expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
    expect(acknowledged.length + refused).toBeGreaterThan(0);
    expect(await scheduledPost()).toEqual({ status: 'scheduled', asked: true });
    expect(await servingAgain(servers)).toEqual(allServing(servers));
    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
  }, 180_000);

  it('stays up when PostgreSQL terminates its backends in the middle of transactions, and serves again after', async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    let terminations: Promise<number> | undefined;
    // Five rounds 100 ms apart: every backend of every server, the rate-limit pools' too.
    const terminate = async () => {
      let ended = 0;
      for (let round = 0; round < 5; round++) {
        await new Promise((r) => setTimeout(r, 100));
        const rows = await admin`SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE application_name LIKE 'cr serve%'`;
        ended += rows.filter((r) => r.t === true).length;
      }
      return ended;
    };
    try {
      const { acknowledged, answers } = await load(
        () => servers,
        WRITES,
        40_000,
        () => {
          terminations = terminate();
        },
        MIXED,
      );
      expect(terminations, 'backends were terminated under load').toBeDefined();
      expect(await terminations).toBeGreaterThan(0);
      for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
      expect(unexpected(answers), JSON.stringify(answers)).toEqual([]);
      const have = await stored();
      expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
      expect(await scheduledPost()).toEqual({ status: 'scheduled', asked: true });
      expect(await servingAgain(servers)).toEqual(allServing(servers));
      for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    } finally {
      await admin.end();
    }
  }, 180_000);

  it('stays up when a connection is terminated while it opens, and serves again after', async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    // A server of its own: the others' pools may still wait out the client's backoff after the
    // terminations above before they open a connection.
    const s = await spawnServe(['--store', url, '--rate-limit', '1000000'], { env: { CR_NOW: NOW } });
    servers.push(s);
    try {
      // Every connection of the server closed, and seen closed before the next request.
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'cr serve%'`;
      const open = () => admin`SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'cr serve%'`;
      for (let i = 0; i < 200 && (await open()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      let answer: Promise<string> | undefined;
      await admin.begin(async (tx) => {
        // Connections opened now wait on pg_type (the client's own array-type query, when it makes
        // one): terminated there, that query was lost in a rejection nobody handled.
        await tx`LOCK TABLE pg_catalog.pg_type IN ACCESS EXCLUSIVE MODE`;
        const { path, init } = requestOf('finance', 0);
        answer = fetch(`${s.baseUrl}${path}`, init).then(
          async (res) => `${res.status}${res.status === 200 ? '' : ` ${((await res.json()) as { code: string }).code}`}`,
          () => 'no answer',
        );
        let waiting = 0;
        // Up to 30 s: the server opens its connection after the client's reconnect backoff,
        // later on a loaded machine.
        for (let i = 0; i < 600 && waiting === 0; i++) {
          await new Promise((r) => setTimeout(r, 50));
          waiting = (await tx`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'cr serve%' AND wait_event_type = 'Lock'`).length;
        }
        expect(waiting, 'a connection of the server waited on the lock').toBeGreaterThan(0);
      });
      const got = await answer;
      if (got === 'no answer') await s.exited; // it ended: its standard error says why
      expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
      expect(got).toMatch(/^(200|503 STORE_UNAVAILABLE)$/);
      expect(await servingAgain([s])).toEqual(allServing([s]));
      expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    } finally {
      await admin.end();
    }
  }, 120_000);
});
