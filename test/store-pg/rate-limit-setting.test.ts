import { afterAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { freshDatabase } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs } from '../helpers/tmp.js';

/**
 * The stored rate limit as `cr local migrate` reports and sets it (docs/shared-sandbox.md
 * "Roles", "Settings shared by every server"): null for none, the default stored by a migrate,
 * bounded like `cr serve --rate-limit`, and a hand-edited value refused with what to run.
 */
describe('the stored rate limit', () => {
  const sqls: postgres.Sql[] = [];
  afterAll(async () => {
    for (const s of sqls) await s.end();
    cleanupTempDirs();
  });

  it('reports null for none, and stores the default when a migrate finds none', async () => {
    const db = await freshDatabase();
    const dry = await runCli(['local', 'migrate', '--store', db.url, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { rateLimit: unknown }).rateLimit).toEqual({ before: null, after: 1000 });
    const done = await runCli(['local', 'migrate', '--store', db.url, '--json']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect((JSON.parse(done.stdout) as { rateLimit: unknown }).rateLimit).toEqual({ before: null, after: 1000 });
  });

  it.each([
    ['local', 'migrate', '--store', 'postgres://cr@127.0.0.1:9/none', '--rate-limit', '99999999999'],
    ['serve', '--port', '0', '--store', 'postgres://cr@127.0.0.1:9/none', '--rate-limit', '99999999999'],
  ])('refuses a rate limit over 2147483647 (%s), exit 2', async (...args) => {
    const r = await runCli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--rate-limit must be at most 2147483647');
  });

  it('refuses a hand-edited stored value, naming cr local migrate --rate-limit, which then mends it', async () => {
    const db = await freshDatabase();
    expect((await runCli(['local', 'migrate', '--store', db.url])).exitCode).toBe(0);
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
    sqls.push(sql);
    await sql`UPDATE cr_settings SET value = '"lots"'::jsonb WHERE name = 'rate_limit'`;
    const r = await runCli(['serve', '--port', '0', '--store', db.url]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not an integer from 1 to 2147483647');
    expect(r.stderr).toContain('--rate-limit N');
    expect(r.stderr).not.toContain('NaN');
    const mended = await runCli(['local', 'migrate', '--store', db.url, '--rate-limit', '40', '--json']);
    expect(mended.exitCode, mended.stderr).toBe(0);
    expect((JSON.parse(mended.stdout) as { rateLimit: unknown }).rateLimit).toEqual({ before: null, after: 40 });
  });
});
