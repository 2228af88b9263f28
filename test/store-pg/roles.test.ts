import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { serverUrl } from '../helpers/postgres.js';
import { ROOT } from '../helpers/paths.js';
import { FIXTURE, IDS, KEYS } from '../server/helpers.js';
import { cleanupTempDirs } from '../helpers/tmp.js';

/**
 * The two-role recipe of docs/shared-sandbox.md "Roles", run as written there (only the names
 * made unique: roles belong to the whole server): an owner role migrates with `cr local
 * migrate`, a runtime role with rows' rights only serves with `--no-migrate`, reads and writes
 * through the API, and cannot change the schema.
 */
const DOC = readFileSync(join(ROOT, 'docs', 'shared-sandbox.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('## Roles: one that migrates'), DOC.indexOf('## Upgrading'));
const [makeRoles, grants, afterMigrate] = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);

const prefix = inject('pgRunPrefix');
const names = { owner: `${prefix}owner`, app: `${prefix}app`, db: `${prefix}roles` };
const named = (sqlText: string) => sqlText.replaceAll('cr_owner', names.owner).replaceAll('cr_app', names.app).replaceAll('cr_sandbox', names.db);
const as = (role: string, db = names.db) => {
  const u = new URL(serverUrl());
  u.username = role;
  u.pathname = `/${db}`;
  return u.toString();
};
const statements = (text: string) =>
  text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

describe('an owner role that migrates and a runtime role that only reads and writes rows', () => {
  let admin: postgres.Sql;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    expect(makeRoles).toContain('CREATE ROLE cr_app');
    expect(grants).toContain('ALTER DEFAULT PRIVILEGES');
    admin = postgres(serverUrl(), { max: 1, onnotice: () => undefined });
    for (const s of statements(named(makeRoles!))) await admin.unsafe(s);
    const inDb = postgres(as(new URL(serverUrl()).username), { max: 1, onnotice: () => undefined });
    try {
      for (const s of statements(named(grants!))) await inDb.unsafe(s);
    } finally {
      await inDb.end();
    }
  });
  afterAll(async () => {
    await server?.stop();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${names.db} WITH (FORCE)`);
    await admin.unsafe(`DROP ROLE IF EXISTS ${names.app}`);
    await admin.unsafe(`DROP ROLE IF EXISTS ${names.owner}`);
    await admin.end();
    cleanupTempDirs();
  });

  it('refuses to migrate as the runtime role, and to serve with --no-migrate before the owner migrated', async () => {
    const migrating = await runCli(['local', 'migrate', '--store', as(names.app)]);
    expect(migrating.exitCode, migrating.stderr).toBe(1);
    expect(migrating.stderr).toContain('42501');
    expect(migrating.stderr).toContain('migrate as the role that owns it');
    const serving = await runCli(['serve', '--no-migrate', '--port', '0', '--store', as(names.app)]);
    expect(serving.exitCode, serving.stderr).toBe(78);
    expect(serving.stderr).toContain('schema is version 0, older than this cr needs');
    expect(serving.stderr).toContain('run cr local migrate --store');
    expect(serving.stderr).toContain('STORE_SCHEMA_OLDER');
    // Nothing was made by either.
    const [t] = await admin.unsafe(`SELECT count(*)::int AS n FROM pg_tables WHERE tableowner IN ('${names.app}', '${names.owner}')`);
    expect(t!.n).toBe(0);
  });

  it('migrates as the owner (a dry run first, which changes nothing), and loads the fixture as the owner', async () => {
    const dry = await runCli(['local', 'migrate', '--store', as(names.owner), '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { dryRun: boolean; from: number; migrations: { version: number; sql: string }[] };
    expect(plan.dryRun).toBe(true);
    expect(plan.from).toBe(0);
    expect(plan.migrations.map((m) => m.version)).toEqual([1, 2, 3, 4]);
    expect(plan.migrations[0]!.sql).toContain('CREATE TABLE cr_records');
    const owner = postgres(as(names.owner), { max: 1, onnotice: () => undefined });
    try {
      const [none] = await owner`SELECT to_regclass('cr_schema') AS t`;
      expect(none!.t).toBeNull();
    } finally {
      await owner.end();
    }
    const done = await runCli(['local', 'migrate', '--store', as(names.owner)]);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toContain('schema version 0 → 4; applied 4 migrations');
    const again = await runCli(['local', 'migrate', '--store', as(names.owner)]);
    expect(again.stdout).toContain('up to date: nothing to apply');
    const copied = await runCli(['local', 'copy', '--from', FIXTURE, '--to', as(names.owner)]);
    expect(copied.exitCode, copied.stderr).toBe(0);
    // The recipe's last block: run once the owner migrated.
    expect(afterMigrate).toContain('cr_settings');
    const inDb = postgres(as(new URL(serverUrl()).username), { max: 1, onnotice: () => undefined });
    try {
      for (const s of statements(named(afterMigrate!))) await inDb.unsafe(s);
    } finally {
      await inDb.end();
    }
  });

  it('serves with --no-migrate as the runtime role: reads, writes, rate-limit counts', async () => {
    server = await spawnServe(['--no-migrate', '--store', as(names.app)]);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server!.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${KEYS.editorW1}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const read = await call('GET', '/intelligence/learnings');
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-remaining')).toBeTruthy();
    const created = await call('POST', '/content/listeners', { name: 'by the runtime role', source_type: 'x', query_config: { handle: 'h' } });
    expect(created.status, await created.clone().text()).toBe(200);
    const scheduled = await call('POST', `/social/posts/${IDS.postDraft}/schedule`, { scheduled_at: '2025-07-01T09:00:00.000Z' });
    expect(scheduled.status).toBe(200);
    const [row] = await admin.unsafe(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = '${names.app}' AND datname = '${names.db}'`);
    expect(row!.n).toBeGreaterThan(0);
  });

  it('keeps the runtime role from changing the schema: no CREATE, DROP, ALTER or TRUNCATE', async () => {
    const app = postgres(as(names.app), { max: 1, onnotice: () => undefined });
    try {
      for (const ddl of ['CREATE TABLE cr_intruder (x int)', 'DROP TABLE cr_records', 'ALTER TABLE cr_records ADD COLUMN x int', 'TRUNCATE cr_rate_windows']) {
        await expect(app.unsafe(ddl), ddl).rejects.toMatchObject({ code: '42501' });
      }
      // It still writes rows, and a table a later migration makes (as the owner) is its to write too.
      const owner = postgres(as(names.owner), { max: 1, onnotice: () => undefined });
      try {
        await owner.unsafe('CREATE TABLE cr_later (id bigserial PRIMARY KEY, x int)');
      } finally {
        await owner.end();
      }
      // The schema's version and the shared settings: read, never written.
      for (const dml of [
        "INSERT INTO cr_schema (version, what) VALUES (999, 'x')",
        'DELETE FROM cr_schema',
        "UPDATE cr_settings SET value = '1'",
        "INSERT INTO cr_settings (name, value) VALUES ('other', '1')",
        'DELETE FROM cr_settings',
      ]) {
        await expect(app.unsafe(dml), dml).rejects.toMatchObject({ code: '42501' });
      }
      expect((await app`SELECT value FROM cr_settings WHERE name = 'rate_limit'`)[0]!.value).toBe(1000);
      await app`INSERT INTO cr_later (x) VALUES (1)`;
      await expect(app.unsafe('DROP TABLE cr_later')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await app.end();
    }
  });
});
