import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import postgres from 'postgres';
import { freshDatabase } from '../../helpers/postgres.js';

/**
 * `cr local init --store postgres://…` (docs/shared-sandbox.md "The local tool set"): the demo
 * records and an admin key go into the empty database (not into a file named after the URL);
 * a database that holds a store is refused like an existing store file (exit 2), and --force,
 * which replaces a file, has nothing to replace there.
 */
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  cleanupTempDirs();
});

describe('cr local init on PostgreSQL', () => {
  it('fills an empty database with the demo data and a working admin key; a second init is refused, --force too', async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const home = tempDir('cr-init-db-');
    const init = await runCli(['local', 'init', '--demo', '--store', db.url], { configDir: home });
    expect(init.exitCode, init.stderr).toBe(0);
    const key = init.stdout.trim();
    expect(key).toMatch(/^cr_[0-9a-f]{40}$/);
    expect(init.stderr).toContain(`Next: cr serve --store ${db.url}`);

    const exported = JSON.parse((await runCli(['local', 'export', '--store', db.url])).stdout);
    expect(exported.social_posts.length).toBeGreaterThan(0);
    expect(exported.visibility_scans.length).toBeGreaterThan(0);
    const keys = await runCli(['local', 'keys', 'list', '--store', db.url, '--json']);
    expect(JSON.parse(keys.stdout)).toMatchObject([{ name: 'local admin', role: 'admin' }]);

    const again = await runCli(['local', 'init', '--store', db.url], { configDir: home });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/a store already exists at postgres:\/\/.*records\)/);
    const forced = await runCli(['local', 'init', '--force', '--store', db.url], { configDir: home });
    expect(forced.exitCode).toBe(2);
    expect(forced.stderr).toContain('a database is filled only when it is empty');
    expect(JSON.parse((await runCli(['local', 'export', '--store', db.url])).stdout)).toEqual(exported);
  });

  it('shows, after an init, a store URL that works when copied: without its password, which comes from PGPASSWORD or ~/.pgpass', async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const u = new URL(db.url);
    u.password = 'n3xt-pw';
    const init = await runCli(['local', 'init', '--store', u.toString()], { configDir: tempDir('cr-init-db-') });
    expect(init.exitCode, init.stderr).toBe(0);
    u.password = '';
    expect(init.stderr).toContain(`Next: cr serve --store ${u.toString()} (with the password in PGPASSWORD or ~/.pgpass)`);
    expect(init.stderr.split('\n').find((l) => l.startsWith('Next:'))).not.toContain('***');
    expect(init.stderr).not.toContain('n3xt-pw');
  });

  it('the records and the admin key are written by one transaction: an init stopped half-way leaves the database empty', async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const init = await runCli(['local', 'init', '--store', db.url], { configDir: tempDir('cr-init-db-') });
    expect(init.exitCode, init.stderr).toBe(0);
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql`SELECT collection, xmin::text AS tx FROM cr_records`;
      expect(rows.map((r) => r.collection).sort()).toEqual(['agencies', 'api_keys', 'users', 'websites']);
      expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    } finally {
      await sql.end();
    }
  });

  it('a URL the client cannot read (a bare # / % in the password, a bad port) is exit 2 naming the fix, never the password', async () => {
    const home = tempDir('cr-init-db-');
    for (const url of ['postgres://u:Se#cr3t@127.0.0.1:9/db', 'postgres://u:Se/cr3t@127.0.0.1:9/db', 'postgres://u:Se%cr3t@127.0.0.1:9/db', 'postgres://u:Secr3t@127.0.0.1:99999/db']) {
      for (const args of [
        ['local', 'init', '--store', url],
        ['local', 'export', '--store', url],
        ['local', 'keys', 'list', '--store', url],
        ['--json', 'local', 'init', '--store', url],
      ]) {
        const r = await runCli(args, { configDir: home });
        expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain('percent-encode');
        expect(r.stderr).not.toContain('INTERNAL');
        expect(r.stdout + r.stderr).not.toContain('cr3t');
      }
    }
  });
});
