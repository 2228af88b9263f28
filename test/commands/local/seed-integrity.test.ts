import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore, onPostgres } from '../../helpers/store-under-test.js';

/**
 * What `cr local seed` must never let into a store (docs/fixtures.md): a record the store
 * would refuse on its next open, two keys with one hash, a record too deep to write, and
 * bytes that are not UTF-8.
 */
afterAll(() => cleanupTempDirs());

const USER = { id: 'u-1', email: 'ci@example.com', name: 'CI' };
const AGENCY = { id: 'a-1', name: 'Agency' };
const SITE = { id: '0c000000-0000-4000-8000-000000000001', name: 'Site', domain: 'site.example', agency_id: 'a-1', owner_id: 'u-1', location: null };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const key = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  key_sha256: sha(id),
  user_id: 'u-1',
  role: 'viewer',
  agency_id: 'a-1',
  created_at: '2026-01-01T00:00:00Z',
  revoked_at: null,
  ...extra,
});

function write(dir: string, name: string, doc: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof doc === 'string' || Buffer.isBuffer(doc) ? doc : JSON.stringify(doc));
  return path;
}

/** What a refused seed must leave as it was: the store file's bytes, or a database's export. */
const contents = async (store: string) => (onPostgres() ? (await runCli(['local', 'export', '--store', store])).stdout : readFileSync(store));

/** A store (file or database: test/helpers/store-under-test.ts) seeded with a user, an agency, a website and `records`. */
async function seeded(records: Record<string, unknown>) {
  const dir = tempDir('cr-seed-integrity-');
  const store = await newStore(dir);
  const first = await runCli(['local', 'seed', write(dir, 'base.json', { users: [USER], agencies: [AGENCY], websites: [SITE], ...records }), '--store', store]);
  expect(first.exitCode, first.stderr).toBe(0);
  return { dir, store };
}

// The input refused before any store is opened, and no store file made: the JSON pass only runs those.
describe('cr local seed keeps the store whole', () => {
  it('an upsert whose merge with the stored record would not validate is a problem (the store still opens)', async () => {
    const { dir, store } = await seeded({ api_keys: [key('k-1')] });
    const before = await contents(store);
    // website_id over a stored key scoped to an agency: merged, the key would have both.
    const { agency_id: _a, ...rest } = key('k-1');
    const file = write(dir, 'scope.json', { api_keys: [{ ...rest, website_id: '0c000000-0000-4000-8000-000000000001' }] });
    const r = await runCli(['local', 'seed', file, '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}: $.api_keys[0].website_id: exactly one of website_id and agency_id must be set (once merged with the stored record)`);
    expect(await contents(store)).toEqual(before);
    expect((await runCli(['local', 'keys', 'list', '--store', store])).exitCode).toBe(0);
  });

  it('a key_sha256 another key already has is a problem, in the store or in the file', async () => {
    const { dir, store } = await seeded({ api_keys: [key('k-1', { role: 'admin' })] });
    const before = await contents(store);
    const file = write(dir, 'dup.json', { api_keys: [key('k-2', { key_sha256: sha('k-1'), revoked_at: '2026-01-02T00:00:00Z' }), key('k-3'), key('k-4', { key_sha256: sha('k-3') })] });
    const r = await runCli(['local', 'seed', file, '--store', store]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}: `));
    expect(lines).toEqual([
      `${file}: $.api_keys[0].key_sha256: another key already has this key_sha256 (id "k-1"); each key needs its own`,
      `${file}: $.api_keys[1].key_sha256: another key already has this key_sha256 (id "k-4"); each key needs its own`,
      `${file}: $.api_keys[2].key_sha256: another key already has this key_sha256 (id "k-3"); each key needs its own`,
    ]);
    expect(await contents(store)).toEqual(before);
    // The same key seeded again under its own id is an upsert, not a clash.
    expect((await runCli(['local', 'seed', write(dir, 'same.json', { api_keys: [key('k-1', { name: 'renamed' })] }), '--store', store])).exitCode).toBe(0);
  });

  it.skipIf(onPostgres())('a record nested deeper than an API body may be is a problem, and no store is made', async () => {
    const dir = tempDir('cr-seed-integrity-');
    const store = join(dir, 'store.json');
    const depth = 20_000;
    const file = write(dir, 'deep.json', `{"users":[{"id":"u-1","email":"a","name":"b","extra":${'['.repeat(depth)}${']'.repeat(depth)}}]}`);
    const r = await runCli(['local', 'seed', file, '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\$\\.users\\[0\\]\\.extra(\\[0\\])+: Nested deeper than 32 levels`, 'm'));
    expect(r.stderr).toContain('1 problem in the fixtures; nothing was written');
    expect(existsSync(store)).toBe(false);
  });

  it.skipIf(onPostgres())('bytes that are not UTF-8 are refused (exit 2, nothing written); a leading byte order mark is dropped', async () => {
    const dir = tempDir('cr-seed-integrity-');
    const store = join(dir, 'store.json');
    const bad = write(dir, 'latin1.json', Buffer.concat([Buffer.from('{"users":[{"id":"u-1","email":"a","name":"B'), Buffer.from([0xf6]), Buffer.from('rk"}]}')]));
    const r = await runCli(['local', 'seed', bad, '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${bad}: $: not valid UTF-8`);
    expect(existsSync(store)).toBe(false);
    const bom = write(dir, 'bom.json', `\uFEFF${JSON.stringify({ users: [{ ...USER, name: 'Björk' }] })}`);
    const ok = await runCli(['local', 'seed', bom, '--store', store]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse((await runCli(['local', 'export', '--store', store, '--only', 'users'])).stdout).users[0].name).toBe('Björk');
  });
});

describe('cr local seed problems', () => {
  it.skipIf(onPostgres())('quote the value they found with any API key in it masked', async () => {
    const dir = tempDir('cr-seed-integrity-');
    const pasted = `cr_${'1a2b'.repeat(10)}`;
    const file = write(dir, 'pasted.json', { users: [USER], agencies: [AGENCY], websites: [SITE], api_keys: [key('k-1', { role: pasted })] });
    const r = await runCli(['local', 'seed', file, '--store', join(dir, 'store.json')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}: $.api_keys[0].role: expected one of "viewer", "editor", "admin", got "cr_1a2b…1a2b"`);
    expect(r.stderr + r.stdout).not.toContain(pasted);
  });
});

describe('cr local seed size', () => {
  it.skipIf(onPostgres())('a file over 64 MiB is refused before it is read, with or without a server (exit 2, no store made)', async () => {
    const dir = tempDir('cr-seed-integrity-');
    const store = join(dir, 'store.json');
    const big = write(dir, 'big.json', '{}');
    truncateSync(big, 64 * 1024 * 1024 + 1); // sparse: nothing to read but its size
    const r = await runCli(['local', 'seed', big, '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${big}: $: larger than 64 MiB, the most a seed takes`);
    expect(existsSync(store)).toBe(false);
  });
});
