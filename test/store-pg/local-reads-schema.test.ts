import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { runCli } from '../helpers/run-cli.js';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { FIXTURE, IDS } from '../server/helpers.js';
import { freshDatabase } from '../helpers/postgres.js';
import { NEWEST_SCHEMA } from '../../src/server/store-pg/migrations.js';

/**
 * Only migrate, init, copy --to, seed and `cr serve` change a database's schema
 * (docs/shared-sandbox.md "Upgrading"): every other local command checks it and changes nothing.
 */
describe('cr local commands that do not make a store leave the schema alone', () => {
  const sqls: postgres.Sql[] = [];
  const connect = (url: string) => {
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    sqls.push(sql);
    return sql;
  };
  afterAll(async () => {
    for (const s of sqls) await s.end();
    cleanupTempDirs();
  });

  const schemaOf = async (sql: postgres.Sql) => {
    const [t] = await sql`SELECT to_regclass('cr_schema') IS NOT NULL AS present`;
    if (!t!.present) return null;
    const [row] = await sql`SELECT coalesce(max(version), 0) AS v FROM cr_schema`;
    return Number(row!.v);
  };

  it('refuses an empty database for every read and record edit, creating no table', async () => {
    const db = await freshDatabase();
    const sql = connect(db.url);
    for (const args of [
      ['local', 'websites'],
      ['local', 'keys', 'list'],
      ['local', 'export'],
      ['local', 'posts'],
      ['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1],
      ['local', 'keys', 'revoke', 'no-such-key'],
    ]) {
      const r = await runCli([...args, '--store', db.url]);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(78);
      expect(r.stderr).toContain('holds no cr schema');
      expect(r.stderr).toContain('cr local migrate --store');
    }
    expect(await schemaOf(sql)).toBeNull();
    const [{ n }] = (await sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`) as unknown as [{ n: number }];
    expect(n).toBe(0);
  });

  it('refuses an older schema without upgrading it, and serves it once migrated', async () => {
    const dir = tempDir('cr-pg-reads-');
    const source = join(dir, 'store.json');
    copyFileSync(FIXTURE, source);
    const db = await freshDatabase();
    expect((await runCli(['local', 'copy', '--from', source, '--to', db.url])).exitCode).toBe(0);
    const sql = connect(db.url);
    // As a database an older cr made: its newest migration's row is not there.
    await sql`DELETE FROM cr_schema WHERE version = ${NEWEST_SCHEMA}`;
    const listed = await runCli(['local', 'keys', 'list', '--store', db.url]);
    expect(listed.exitCode).toBe(78);
    expect(listed.stderr).toContain(`older than this cr needs (${NEWEST_SCHEMA})`);
    expect(listed.stderr).toContain('cr local migrate --store');
    expect(listed.stderr).toContain('STORE_SCHEMA_OLDER');
    expect(await schemaOf(sql)).toBe(NEWEST_SCHEMA - 1);
    // The row back, as `cr local migrate` would leave it: the reads work again.
    await sql`INSERT INTO cr_schema (version, what) VALUES (${NEWEST_SCHEMA}, 'test')`;
    const again = await runCli(['local', 'websites', '--store', db.url, '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('still lets seed make a store in an empty database (it may migrate)', async () => {
    const db = await freshDatabase();
    const r = await runCli(['local', 'seed', FIXTURE, '--store', db.url]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await schemaOf(connect(db.url))).toBe(NEWEST_SCHEMA);
  });
});
