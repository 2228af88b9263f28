import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { NOW, writeFixtureStore } from '../../helpers/fixture-store.js';
import { useStoreFrom } from '../../helpers/store-under-test.js';

afterAll(() => cleanupTempDirs());

describe('cr local keys list', () => {
  const store = useStoreFrom(() => writeFixtureStore(tempDir('cr-keys-list-')));
  it('on a terminal: dates like every table, local time with a hint', async () => {
    const r = await runCli(['local', 'keys', 'list', '--store', store.location()], { tty: true, env: { CR_NOW: NOW, TZ: 'UTC', COLUMNS: '160' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('2026-01-01 00:00 UTC (325 days ago)');
  });
  it('piped: the scope and its id in cells of their own, the plain ISO value, and an empty cell for a key not revoked', async () => {
    const r = await runCli(['local', 'keys', 'list', '--store', store.location()], { env: { CR_NOW: NOW } });
    expect(r.stdout.split('\n')[0]!.split('\t')).toEqual(['k-editor', 'editor', 'editor', 'website', '11111111-1111-4111-8111-111111111111', '2026-01-01T00:00:00.000Z', '']);
  });
});
