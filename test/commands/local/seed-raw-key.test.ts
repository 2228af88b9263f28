import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore } from '../../helpers/store-under-test.js';

/** docs/fixtures.md: a key itself is never stored, only its sha256. */
afterAll(() => cleanupTempDirs());

const KEY = 'cr_7b166c871f25b7ca3206a9a1d9debdcfae9d2428';
const USER = { id: 'u-1', email: 'ci@example.com', name: 'CI' };
const AGENCY = { id: 'a-1', name: 'Agency' };
const apiKey = (extra: Record<string, unknown>) => ({
  id: 'k-1',
  name: 'ci viewer',
  key_sha256: 'a'.repeat(64),
  user_id: 'u-1',
  role: 'viewer',
  created_at: '2026-01-01T00:00:00Z',
  revoked_at: null,
  agency_id: 'a-1',
  ...extra,
});

async function seedAndExport(extra: Record<string, unknown>) {
  const dir = tempDir('cr-seed-key-');
  const file = join(dir, 'fx.json');
  writeFileSync(file, JSON.stringify({ users: [USER], agencies: [AGENCY], api_keys: [apiKey(extra)] }));
  const store = await newStore(dir);
  const seeded = await runCli(['local', 'seed', file, '--store', store]);
  const exported = await runCli(['local', 'export', '--store', store]);
  return { file, seeded, exported };
}

describe('cr local seed: an api_keys record that carries the key itself', () => {
  it('is refused, naming the field and showing the key masked; nothing is stored or exported', async () => {
    const r = await seedAndExport({ key: KEY });
    expect(r.seeded.exitCode).toBe(2);
    expect(r.seeded.stderr).toContain(`${r.file}: $.api_keys[0].key: holds a key (cr_7b16…2428): a key itself is never stored`);
    expect(r.seeded.stderr + r.seeded.stdout + r.exported.stdout + r.exported.stderr).not.toContain(KEY);
    expect(r.exported.stdout).not.toContain('k-1');
  });

  it('is refused in a nested field of any name too', async () => {
    const r = await seedAndExport({ notes: { pasted: `the key is ${KEY}` } });
    expect(r.seeded.exitCode).toBe(2);
    expect(r.seeded.stderr).toContain('$.api_keys[0].notes.pasted: holds a key (cr_7b16…2428)');
    expect(r.exported.stdout).not.toContain(KEY);
  });

  it('a record with its key_sha256 only is seeded', async () => {
    const r = await seedAndExport({});
    expect(r.seeded.exitCode).toBe(0);
    expect(r.exported.stdout).toContain('"k-1"');
  });
});
