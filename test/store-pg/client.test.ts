import { afterAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { CLIENT_OPTIONS } from '../../src/server/store-pg/connection.js';
import { transaction } from '../../src/server/store-pg/transaction.js';
import { serverUrl } from '../helpers/postgres.js';

/**
 * The PostgreSQL client as cr opens it (src/server/store-pg/connection.ts CLIENT_OPTIONS,
 * src/server/store-pg/transaction.ts), on the run's server: arrays sent without the client's
 * array-type query, and a transaction whose connection the database closes. In this process,
 * so a throw from a timer of the client fails the run (vitest reports it) even where every
 * assertion passes. The whole servers under load: durability.test.ts.
 */
describe('the PostgreSQL client as cr opens it', () => {
  const app = `cr-client-test-${process.pid}`;
  const sql = postgres(serverUrl(), { ...CLIENT_OPTIONS, max: 2, connection: { application_name: app } });
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => undefined });
  afterAll(async () => {
    await Promise.all([sql.end({ timeout: 0 }), admin.end({ timeout: 0 })]);
  });

  it('sends text and integer arrays whole, quotes, backslashes, commas, braces, NULL and empty ones included', async () => {
    const texts = ['a', 'b"c', 'd\\e', 'f,g', '{h}', ' i ', 'NULL', '', 'é ü'];
    const [row] = await sql`SELECT ${texts}::text[] AS t, array_length(${texts}::text[], 1) AS n, ${[1, -2, 30]}::int[] AS i, ${[]}::text[] AS e`;
    expect(row).toMatchObject({ n: texts.length, t: `{a,"b\\"c","d\\\\e","f,g","{h}"," i ","NULL","","é ü"}`, i: '{1,-2,30}', e: '{}' });
    const [nulls] = await sql`SELECT ${['x', null]}::text[] AS t, (${['x', null]}::text[])[2] IS NULL AS second`;
    expect(nulls).toMatchObject({ t: '{x,NULL}', second: true });
    const found = await sql`SELECT v FROM unnest(${texts}::text[]) AS v WHERE v = ANY(${['b"c', 'd\\e', 'missing']})`;
    expect(found.map((r) => r.v)).toEqual(['b"c', 'd\\e']);
  });

  it('rejects a transaction whose connection the database terminates, without writing its ROLLBACK on the closed connection', async () => {
    let pid: number | undefined;
    const done = transaction(sql, async (tx) => {
      [{ pid }] = (await tx`SELECT pg_backend_pid() AS pid`) as unknown as [{ pid: number }];
      await tx`SELECT pg_sleep(30)`;
      return 'committed';
    });
    const outcome = done.then(
      () => 'committed',
      (err: { code?: string }) => err.code,
    );
    for (let i = 0; i < 1000 && pid === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    await admin`SELECT pg_terminate_backend(${pid!})`;
    expect(await outcome).toBe('CONNECTION_CLOSED');
    // What postgres 3.4.9 did next: a ROLLBACK written from a setImmediate on the connection it
    // had let go of, a TypeError out of a timer. Give it the turns it would take; then the pool
    // still answers.
    await new Promise((r) => setTimeout(r, 100));
    expect((await sql`SELECT 1 AS one`)[0]).toEqual({ one: 1 });
  });

  it('rolls back and rejects with the error of a statement PostgreSQL refused, the connection kept', async () => {
    const refused = await transaction(sql, async (tx) => {
      await tx`SELECT 1`;
      await tx`SELECT 1 / 0`;
    }).then(
      () => undefined,
      (err: { code?: string }) => err.code,
    );
    expect(refused).toBe('22012');
    const thrown = await transaction(sql, async (tx) => {
      const [{ txid }] = (await tx`SELECT txid_current() AS txid`) as unknown as [{ txid: string }];
      throw new Error(`not this one: ${txid}`);
    }).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(thrown).toMatch(/^not this one: \d+$/);
    const [{ n }] = (await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${app} AND state = 'idle in transaction'`) as unknown as [{ n: number }];
    expect(n).toBe(0);
    expect(await transaction(sql, async (tx) => (await tx`SELECT 2 AS two`)[0])).toEqual({ two: 2 });
  });
});
