import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { FIXTURE } from '../server/helpers.js';
import { freshDatabase } from '../helpers/postgres.js';
import { readStore } from '../../src/local/read-store.js';

/** `cr local copy` between a JSON file and PostgreSQL (docs/shared-sandbox.md), and restore's refusal. */
describe('cr local copy', () => {
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
});
