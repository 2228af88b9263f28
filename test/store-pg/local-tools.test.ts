import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { FIXTURE, IDS } from '../server/helpers.js';
import { freshDatabase } from '../helpers/postgres.js';
import { readStore } from '../../src/local/read-store.js';

/** The local tool set on a postgres:// store (docs/shared-sandbox.md): copy, keys, seed, export; restore's and --local's refusals. */
describe('cr local on PostgreSQL', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const d of drops) await d();
    cleanupTempDirs();
  });

  it('copies a store file into PostgreSQL and back, and the copy holds the same records byte for byte', async () => {
    const dir = tempDir('cr-copy-');
    const source = join(dir, 'store.json');
    copyFileSync(FIXTURE, source);
    const db = await freshDatabase();
    drops.push(db.drop);
    const there = await runCli(['local', 'copy', '--from', source, '--to', db.url]);
    expect(there.stderr).toMatch(/^Copied \d+ records from .*store\.json to postgres:\/\//);
    expect(there.exitCode).toBe(0);
    const back = join(dir, 'back.json');
    const again = await runCli(['local', 'copy', '--from', db.url, '--to', back, '--json']);
    expect(again.exitCode).toBe(0);
    const result = JSON.parse(again.stdout) as { records: number };
    const original = await readStore(source);
    const copied = await readStore(back);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(original));
    expect(result.records).toBeGreaterThan(20);
  });

  it('refuses a destination that holds records, writing nothing', async () => {
    const dir = tempDir('cr-copy-');
    const source = join(dir, 'store.json');
    copyFileSync(FIXTURE, source);
    const before = readFileSync(source, 'utf8');
    const db = await freshDatabase();
    drops.push(db.drop);
    expect((await runCli(['local', 'copy', '--from', source, '--to', db.url])).exitCode).toBe(0);
    const twice = await runCli(['local', 'copy', '--from', source, '--to', db.url]);
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toMatch(/already holds \d+ records; copy only into an empty store/);
    const onto = await runCli(['local', 'copy', '--from', db.url, '--to', source]);
    expect(onto.exitCode).toBe(1);
    expect(onto.stderr).toContain('already exists');
    expect(readFileSync(source, 'utf8')).toBe(before);
  });

  it('says what to use instead of cr local restore on PostgreSQL', async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const r = await runCli(['local', 'restore', '--store', db.url]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("PostgreSQL's own backups");
  });

  it('makes, lists and revokes keys, seeds and exports, on the database directly', async () => {
    const dir = tempDir('cr-pg-tools-');
    const source = join(dir, 'store.json');
    copyFileSync(FIXTURE, source);
    const db = await freshDatabase();
    drops.push(db.drop);
    expect((await runCli(['local', 'copy', '--from', source, '--to', db.url])).exitCode).toBe(0);
    const made = await runCli(['local', 'keys', 'create', '--role', 'viewer', '--website', IDS.W1, '--store', db.url, '--json']);
    expect(made.exitCode, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout) as { id: string; key: string };
    expect(key.key).toMatch(/^cr_[0-9a-f]{40}$/);
    const listed = await runCli(['local', 'keys', 'list', '--store', db.url, '--json']);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((k) => k.id)).toContain(key.id);
    expect(listed.stdout).not.toContain(key.key);
    expect((await runCli(['local', 'keys', 'revoke', key.id, '--store', db.url])).exitCode).toBe(0);
    const exported = await runCli(['local', 'export', '--store', db.url, '--only', 'api_keys']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const revoked = (JSON.parse(exported.stdout) as { api_keys: { id: string; revoked_at: string | null }[] }).api_keys.find((k) => k.id === key.id);
    expect(revoked?.revoked_at).toBeTruthy();
    const fixtures = join(dir, 'seed.json');
    writeFileSync(fixtures, JSON.stringify({ users: [{ id: 'u-seeded', email: 'seeded@example.com', name: 'Seeded' }] }));
    const seeded = await runCli(['local', 'seed', fixtures, '--store', db.url]);
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    const users = JSON.parse((await runCli(['local', 'export', '--store', db.url, '--only', 'users'])).stdout) as { users: { id: string }[] };
    expect(users.users.map((u) => u.id)).toContain('u-seeded');
  });

  it('refuses --local over a postgres:// CR_STORE, naming what to do', async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    const r = await runCli(['finance', 'summary', '--local'], { env: { CR_STORE: db.url } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cr serve --store postgres://');
  });

  it('names an unreachable database, and refuses one whose schema is newer (exit 78), serving nothing, with --wait-for-store 0', async () => {
    // --wait-for-store 0: no wait for a database not up yet (store-health.test.ts covers the wait).
    const gone = await runCli(['serve', '--store', 'postgres://cr:secret@127.0.0.1:9/none', '--port', '0', '--wait-for-store', '0']);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toContain('cannot open the store at postgres://cr:***@127.0.0.1:9/none');
    expect(gone.stderr).not.toContain('secret');
    const db = await freshDatabase();
    drops.push(db.drop);
    expect((await runCli(['local', 'migrate', '--store', db.url])).exitCode).toBe(0);
    const { default: postgres } = await import('postgres');
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
    await sql`INSERT INTO cr_schema (version, what) VALUES (999, 'from the future')`;
    await sql.end();
    const newer = await runCli(['serve', '--store', db.url, '--port', '0', '--wait-for-store', '0']);
    expect(newer.exitCode).toBe(78);
    expect(newer.stderr).toContain('newer than this cr knows');
    const listed = await runCli(['local', 'keys', 'list', '--store', db.url]);
    expect(listed.exitCode).toBe(78);
    expect(listed.stderr).toContain('newer than this cr knows');
  });
});
