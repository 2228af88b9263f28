import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import postgres from 'postgres';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { NEWEST_SCHEMA } from '../../src/server/store-pg/migrations.js';
import { StoreUnavailableError } from '../../src/server/store/errors.js';
import { STARTING } from '../../src/server/app/readiness-gate.js';

const STARTING_REASON = STARTING.ready ? '' : STARTING.reason;
import { FIXTURE, IDS, KEYS, NOW } from '../server/helpers.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { runBin, spawnBin } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { spawnProcess } from '../helpers/process.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

/**
 * Readiness and start-up on PostgreSQL (docs/shared-sandbox.md "When the database is not
 * there"), on a cluster of this file's own, since it stops and starts it
 * (scripts/pg-cluster.sh halt/resume): the store's readiness through a database stop and
 * start and through a schema migrated past this build; `cr serve` started before its database
 * (503 starting, then serving); a database that does not exist ends the start at once, in words;
 * a newer schema keeps the server up, not ready; a server whose database goes away while it
 * serves (silent, stopped, back) stays up. 127.0.0.1 only; a handful of requests.
 */
const SCRIPT = join(ROOT, 'scripts', 'pg-cluster.sh');
const dir = tempDir('cr-pg-health-');
// The cluster runs as the postgres user (scripts/pg-cluster.sh), which must reach its folder.
chmodSync(dir, 0o755);
const folder = join(dir, 'cluster');

async function cluster(command: string): Promise<string> {
  const r = await spawnProcess('bash', [SCRIPT, command, folder], { env: { HOME: dir }, timeoutMs: 120_000 });
  if (r.exitCode !== 0) throw new Error(`scripts/pg-cluster.sh ${command} failed: ${r.stderr}`);
  return String(r.stdout).trim();
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const withDatabase = (url: string, db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();

/** GET on 127.0.0.1:port: status, Retry-After, JSON body; a refused connection as 'refused'. */
async function get(port: number, path: string, key?: string) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
  } catch {
    return { status: 'refused' as const, retryAfter: null, body: undefined };
  }
}

/** The cause and reason a 503 of GET /readyz names (probe-routes.ts: the envelope's details). */
function notReady(body: Record<string, unknown> | undefined): { cause?: string; reason?: string } {
  const details = (body?.details ?? []) as { path: string; message: string }[];
  return Object.fromEntries(details.map((d) => [d.path, d.message]));
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, tries = 200): Promise<T> {
  let last = await probe();
  for (let i = 0; i < tries && !ok(last); i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await probe();
  }
  return last;
}

let url: string;
const servers: ServeProcess[] = [];
beforeAll(async () => {
  url = await cluster('start');
  const store = await PgStore.open(url, { max: 2 });
  try {
    await loadInto(store, JSON.parse(readFileSync(FIXTURE, 'utf8')));
  } finally {
    await store.close();
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await cluster('stop').catch(() => undefined);
});

const learnings = `/api/v1/intelligence/learnings?website_id=${IDS.W1}`;

describe('PostgreSQL store readiness', () => {
  it('ready; not ready (database_unreachable, in words) while the database is stopped, its reads 503; ready again once it is back', async () => {
    const store = await PgStore.open(url, { max: 2 });
    try {
      expect(await store.readiness()).toEqual({ ready: true });
      await cluster('halt');
      const down = await store.readiness();
      expect(down).toMatchObject({ ready: false, cause: 'database_unreachable' });
      expect(down.ready === false && down.reason).toMatch(/^the database at 127\.0\.0\.1:\d+: .*\((ECONNREFUSED|57P01|CONNECTION_CLOSED|CONNECTION_ENDED)\)/);
      const read = await Promise.resolve(store.apiKeys()).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(StoreUnavailableError);
      expect((read as StoreUnavailableError).why).toBe('database_unreachable');
      await cluster('resume');
      expect(
        await until(
          () => store.readiness(),
          (r) => r.ready,
        ),
      ).toEqual({ ready: true });
      expect((await store.apiKeys()).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('a question stuck behind a lock: not ready at the 2 s bound, and the database ends the question itself (no connection of the store left waiting)', async () => {
    const store = await PgStore.open(url, { max: 2 });
    const other = postgres(url, { max: 2, onnotice: () => undefined });
    const holder = await other.reserve();
    try {
      await holder`BEGIN`;
      await holder`LOCK TABLE cr_schema IN ACCESS EXCLUSIVE MODE`;
      const r = await store.readiness();
      expect(r).toMatchObject({ ready: false, cause: 'database_unreachable', reason: expect.stringContaining('did not answer within 2000 ms') });
      // The lock is still held: only the database's own bound on the question frees the store's connection.
      const waiting = () => other`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'cr serve' AND wait_event_type = 'Lock'`;
      expect(
        (
          await until(
            () => waiting(),
            ([row]) => row!.n === 0,
          )
        )[0]!.n,
      ).toBe(0);
      await holder`ROLLBACK`;
      expect(await store.readiness()).toEqual({ ready: true });
    } finally {
      holder.release();
      await other.end();
      await store.close();
    }
  }, 60_000);

  it('a schema migrated past this build meanwhile: not ready (schema_newer), every request 503 schema_newer; ready again once it is not', async () => {
    const store = await PgStore.open(url, { max: 2 });
    try {
      await store.sql`INSERT INTO cr_schema (version, what) VALUES (${NEWEST_SCHEMA + 1}, 'from the future')`;
      const r = await store.readiness();
      expect(r).toMatchObject({ ready: false, cause: 'schema_newer', reason: expect.stringContaining(`version ${NEWEST_SCHEMA + 1}, newer than this cr knows`) });
      await expect(Promise.resolve(store.apiKeys())).rejects.toMatchObject({ why: 'schema_newer' });
      await expect(store.commit([{ op: 'patch', collection: 'users', id: 'none', patch: {} }])).rejects.toMatchObject({ why: 'schema_newer' });
      await store.sql`DELETE FROM cr_schema WHERE version = ${NEWEST_SCHEMA + 1}`;
      expect(await store.readiness()).toEqual({ ready: true });
      expect((await store.apiKeys()).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('cr serve and a database that is not there', () => {
  it('started before its database: listens at once, 503 starting (readyz and the API, Retry-After), then serves once the database is up', async () => {
    await cluster('halt');
    const port = await freePort();
    const starting = spawnServe(['--store', url, '--port', String(port), '--rate-limit', '100000'], { env: { CR_NOW: NOW }, readyMs: 60_000 });
    starting.catch(() => undefined);
    try {
      // `starting` from the moment it listens; the reason names the database's refusal once the first attempt failed.
      const ready = await until(
        () => get(port, '/readyz'),
        (r) => r.status !== 'refused' && notReady(r.body).reason !== STARTING_REASON,
      );
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ success: false, code: 'NOT_READY' });
      expect(notReady(ready.body)).toMatchObject({ cause: 'starting', reason: expect.stringContaining('(ECONNREFUSED)') });
      expect(ready.retryAfter).toBe('2');
      expect(JSON.stringify(ready.body)).not.toMatch(/password/i);
      const api = await get(port, learnings, KEYS.viewerW1);
      expect(api).toMatchObject({ status: 503, retryAfter: '2', body: { success: false, code: 'STORE_UNAVAILABLE', details: [{ path: 'cause', message: 'starting' }] } });
      expect((await get(port, '/healthz')).status).toBe(200);
    } finally {
      await cluster('resume');
    }
    const server = await starting;
    servers.push(server);
    expect((await get(port, learnings, KEYS.viewerW1)).status).toBe(200);
    expect(server.stderr()).toMatch(/cr serve: waiting for the store: cannot open the store at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: nothing listens at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  }, 120_000);

  it('SIGTERM while it waits for the database: exits 0 at once', async () => {
    await cluster('halt');
    const port = await freePort();
    const child = spawnBin(['serve', '--store', url, '--port', String(port)], { env: { CR_NOW: NOW }, timeoutMs: 60_000, buffer: false });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    void child.catch(() => undefined);
    try {
      const waiting = await until(
        () => get(port, '/readyz'),
        (r) => r.status !== 'refused' && notReady(r.body).reason !== STARTING_REASON,
      );
      expect(waiting.status).toBe(503);
      expect(notReady(waiting.body).cause).toBe('starting');
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      child.kill('SIGKILL');
      await cluster('resume');
    }
  }, 90_000);

  it('a database that does not exist ends the start at once, in words (exit 1), whatever --wait-for-store says', async () => {
    const r = await runBin(['serve', '--store', withDatabase(url, 'no_such_db'), '--port', '0'], { env: { CR_NOW: NOW }, timeoutMs: 30_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the database does not exist (3D000); create it (createdb NAME) or fix its name at the end of the URL (STORE_UNREACHABLE)');
    expect(r.stderr).not.toContain('waiting for the store');
  }, 60_000);

  it("sslmode=require against a server without TLS ends the start (and cr local migrate) at once, in libpq's words (exit 1), never retried as a reset", async () => {
    // This file's cluster runs with ssl off (scripts/pg-cluster.sh): it answers N to the SSLRequest.
    const required = Object.assign(new URL(url), { search: '?sslmode=require' }).toString();
    const r = await runBin(['serve', '--store', required, '--port', '0'], { env: { CR_NOW: NOW }, timeoutMs: 30_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('server does not support SSL, but SSL was required (SSL_NOT_SUPPORTED)');
    expect(r.stderr).not.toContain('waiting for the store');
    expect(r.stderr).not.toContain('reset');
    const migrate = await runBin(['local', 'migrate', '--store', required], { env: { CR_NOW: NOW }, timeoutMs: 30_000 });
    expect(migrate.exitCode).toBe(1);
    expect(migrate.stderr).toContain('server does not support SSL, but SSL was required (SSL_NOT_SUPPORTED)');
  }, 60_000);

  it('a schema newer than this build at start: stays up, not ready (schema_newer), the API 503 with Retry-After 60; --wait-for-store 0 exits 78', async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe('CREATE DATABASE cr_newer');
    await admin.end();
    const newerUrl = withDatabase(url, 'cr_newer');
    const store = await PgStore.open(newerUrl, { max: 1 });
    await store.sql`INSERT INTO cr_schema (version, what) VALUES (${NEWEST_SCHEMA + 1}, 'from the future')`;
    await store.close();
    const port = await freePort();
    const child = spawnBin(['serve', '--store', newerUrl, '--port', String(port)], { env: { CR_NOW: NOW }, timeoutMs: 60_000, buffer: false });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    void child.catch(() => undefined);
    try {
      const ready = await until(
        () => get(port, '/readyz'),
        (r) => r.status !== 'refused' && notReady(r.body).cause === 'schema_newer',
      );
      expect(ready).toMatchObject({ status: 503, retryAfter: '60', body: { code: 'NOT_READY' } });
      expect(notReady(ready.body).reason).toContain(`version ${NEWEST_SCHEMA + 1}, newer than this cr knows`);
      expect(await get(port, learnings, KEYS.viewerW1)).toMatchObject({
        status: 503,
        retryAfter: '60',
        body: { code: 'STORE_UNAVAILABLE', details: [{ path: 'cause', message: 'schema_newer' }] },
      });
      expect(stderr).toContain('staying up, not ready (503 schema_newer)');
    } finally {
      child.kill('SIGKILL');
    }
    const once = await runBin(['serve', '--store', newerUrl, '--port', '0', '--wait-for-store', '0'], { env: { CR_NOW: NOW }, timeoutMs: 30_000 });
    expect(once.exitCode).toBe(78);
    expect(once.stderr).toContain('STORE_SCHEMA_NEWER');
  }, 90_000);
});

describe('cr serve while its database goes away', () => {
  it('the database host silent and its port closed during a readiness check, then stopped, then back: /healthz 200 throughout, /readyz 503, ready again, the process alive', async () => {
    // Between the server and the cluster, a relay that can go silent as a host dropping off the
    // network does (test/helpers/tcp-relay.ts): the readiness question then gets no answer, and
    // anything new the server tries meanwhile (a cancel request) is refused, the cluster being halted.
    const relay = await startTcpRelay(Number(new URL(url).port));
    const relayUrl = Object.assign(new URL(url), { port: String(relay.port) }).toString();
    const server = await spawnServe(['--store', relayUrl, '--rate-limit', '100000'], { env: { CR_NOW: NOW } });
    servers.push(server);
    const readyAgain = () =>
      until(
        () => get(server.port, '/readyz'),
        (r) => r.status === 200,
      );
    try {
      expect((await readyAgain()).status).toBe(200);
      relay.silence();
      await cluster('halt');
      try {
        // A check given up after its 2 s bound (the first fresh one: the last 200 may be reused
        // for a second, readiness-gate.ts), then another (on a new connection, refused), then
        // /healthz: the process answers all three.
        const late = await until(
          () => get(server.port, '/readyz'),
          (r) => r.status !== 200,
        );
        expect(late.status).toBe(503);
        expect(notReady(late.body)).toMatchObject({ cause: 'database_unreachable', reason: expect.stringContaining('did not answer within 2000 ms') });
        const again = await get(server.port, '/readyz');
        expect(again.status).toBe(503);
        expect(notReady(again.body).cause).toBe('database_unreachable');
        expect((await get(server.port, '/healthz')).status).toBe(200);
        // The silent connections are found gone; the database is still stopped: refused at once.
        relay.dropSilenced();
        const down = await until(
          () => get(server.port, '/readyz'),
          (r) => r.status !== 503 || !notReady(r.body).reason?.includes('did not answer'),
        );
        expect(down.status).toBe(503);
        expect(notReady(down.body).cause).toBe('database_unreachable');
        expect((await get(server.port, learnings, KEYS.viewerW1)).status).toBe(503);
        expect((await get(server.port, '/healthz')).status).toBe(200);
      } finally {
        await cluster('resume');
      }
      expect((await readyAgain()).status).toBe(200);
      expect((await get(server.port, learnings, KEYS.viewerW1)).status).toBe(200);
      expect((await get(server.port, '/healthz')).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.stderr()).not.toMatch(/triggerUncaughtException|Node\.js v\d/);
    } finally {
      await server.stop();
      await relay.close();
    }
  }, 120_000);
});

describe('cr serve and a database that stops accepting its login', () => {
  it('a password changed (28P01), then the role refused (28000): not ready as database_auth_failed in /readyz, the API, the log and the metrics; ready again once it may log in', async () => {
    // This role logs in with a password (scram) from 127.0.0.1; every other stays on trust.
    const hba = join(folder, 'data', 'pg_hba.conf');
    writeFileSync(hba, `host all cr_auth 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe("CREATE ROLE cr_auth LOGIN SUPERUSER PASSWORD 'first-pass'");
    await admin`SELECT pg_reload_conf()`;
    const asRole = Object.assign(new URL(url), { username: 'cr_auth' }).toString();
    const server = await spawnServe(['--store', asRole, '--rate-limit', '100000', '--log-format', 'json'], { env: { CR_NOW: NOW, PGPASSWORD: 'first-pass' } });
    servers.push(server);
    const kickOut = () => admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'cr_auth'`;
    const readyz = () => get(server.port, '/readyz');
    const metrics = async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    try {
      expect((await until(readyz, (r) => r.status === 200)).status).toBe(200);
      await admin.unsafe("ALTER ROLE cr_auth PASSWORD 'second-pass'");
      await kickOut();
      for (const [refusal, code] of [
        [() => undefined, '28P01'],
        [() => admin.unsafe("ALTER ROLE cr_auth NOLOGIN PASSWORD 'first-pass'"), '28000'],
      ] as const) {
        await refusal();
        const down = await until(readyz, (r) => notReady(r.body).reason?.includes(`(${code})`) === true);
        expect(down.status).toBe(503);
        expect(down.retryAfter).toBe('60');
        expect(notReady(down.body)).toMatchObject({ cause: 'database_auth_failed', reason: expect.stringContaining(`(${code})`) });
        expect(JSON.stringify(down.body)).not.toMatch(/first-pass|second-pass/);
        const api = await get(server.port, learnings, KEYS.viewerW1);
        expect(api).toMatchObject({ status: 503, retryAfter: '60', body: { code: 'STORE_UNAVAILABLE', details: [{ path: 'cause', message: 'database_auth_failed' }] } });
      }
      const lines = server
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', path: '/api/v1/intelligence/learnings', status: 503, cause: 'database_auth_failed' }));
      const text = await metrics();
      expect(text).toMatch(/^cr_ready\{cause="database_auth_failed"\} 0$/m);
      expect(text).toMatch(/^cr_http_refused_total\{status="503",cause="database_auth_failed"\} [1-9]/m);
      expect(server.stderr()).not.toMatch(/first-pass|second-pass/);
      await admin.unsafe('ALTER ROLE cr_auth LOGIN');
      expect((await until(readyz, (r) => r.status === 200)).status).toBe(200);
      expect((await get(server.port, learnings, KEYS.viewerW1)).status).toBe(200);
      expect(await metrics()).toMatch(/^cr_ready\{cause=""\} 1$/m);
    } finally {
      await server.stop();
      await admin.end();
    }
  }, 120_000);
});
