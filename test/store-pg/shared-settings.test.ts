import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PgStore } from '../../src/server/store-pg/pg-store.js';
import { loadInto } from '../../src/server/store-pg/bulk-load.js';
import { FIXTURE, KEYS } from '../server/helpers.js';
import { freshDatabase } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { cleanupTempDirs } from '../helpers/tmp.js';

/**
 * The hourly rate limit is one for every server of a database (docs/shared-sandbox.md
 * "Settings shared by every server"): the first server writes it, a server given another value
 * refuses to start, one given none counts with the database's, and `cr local migrate
 * --rate-limit` changes it for all.
 */
describe('the rate limit shared by every server of one database', () => {
  let url: string;
  const servers: ServeProcess[] = [];
  beforeAll(async () => {
    url = (await freshDatabase()).url;
    const store = await PgStore.open(url, { max: 2 });
    try {
      await loadInto(store, JSON.parse(readFileSync(FIXTURE, 'utf8')));
    } finally {
      await store.close();
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    cleanupTempDirs();
  });

  const limitOf = async (s: ServeProcess) => {
    const res = await fetch(`${s.baseUrl}/intelligence/learnings`, { headers: { authorization: `Bearer ${KEYS.editorW1}` } });
    await res.arrayBuffer();
    return res.headers.get('x-ratelimit-limit');
  };

  it('refuses a second server with another --rate-limit (exit 2, naming both values), and gives one without the flag the first one', async () => {
    const first = await spawnServe(['--store', url, '--rate-limit', '50']);
    servers.push(first);
    expect(await limitOf(first)).toBe('50');
    await expect(spawnServe(['--store', url, '--rate-limit', '70'])).rejects.toMatchObject({ exitCode: 2 });
    const refused = await runCli(['serve', '--port', '0', '--store', url, '--rate-limit', '70']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--rate-limit 70 disagrees with the rate limit the servers of this database count with (50 requests a key an hour)');
    expect(refused.stderr).toContain('--rate-limit 70 as the role that owns the schema, then restart the servers');
    const same = await spawnServe(['--store', url, '--rate-limit', '50']);
    const none = await spawnServe(['--store', url]);
    servers.push(same, none);
    expect(await limitOf(none)).toBe('50');
    expect(await limitOf(same)).toBe('50');
  });

  it('changes the limit for every server with cr local migrate --rate-limit (--dry-run changes nothing); servers started after it count with it', async () => {
    const dry = await runCli(['local', 'migrate', '--store', url, '--rate-limit', '70', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('rate limit: 70 requests a key an hour would be set (was 50)');
    const stillRefused = await runCli(['serve', '--port', '0', '--store', url, '--rate-limit', '70']);
    expect(stillRefused.exitCode).toBe(2);
    const set = await runCli(['local', 'migrate', '--store', url, '--rate-limit', '70', '--json']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect((JSON.parse(set.stdout) as { rateLimit: unknown }).rateLimit).toEqual({ before: 50, after: 70 });
    const after = await spawnServe(['--store', url, '--rate-limit', '70']);
    const plain = await spawnServe(['--store', url]);
    servers.push(after, plain);
    expect(await limitOf(after)).toBe('70');
    expect(await limitOf(plain)).toBe('70');
  });
});
