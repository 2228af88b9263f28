import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { NOW, POST_DRAFT, SITE, USER, writeFixtureStore } from '../../helpers/fixture-store.js';
import { useStoreFrom } from '../../helpers/store-under-test.js';

/**
 * --csv of the local store's lists (docs/cli-contract.md "For scripts"): a header row of the
 * store's field names, as --json prints them, and one record a row with full values.
 */
afterAll(() => cleanupTempDirs());

describe('cr local posts and websites --csv', () => {
  const store = useStoreFrom(() => writeFixtureStore(tempDir('cr-local-csv-')));
  it('cr local posts --csv: the fields, then one post a row', async () => {
    const r = await runCli(['local', 'posts', '--store', store.location(), '--csv'], { env: { CR_NOW: NOW } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')).toEqual(['id,websiteId,status,scheduledAt,content,createdAt,updatedAt', `${POST_DRAFT},${SITE},draft,,Hello,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z`, '']);
  });
  it('cr local websites --csv: the fields, then one website a row', async () => {
    const r = await runCli(['local', 'websites', '--store', store.location(), '--csv', '--no-headers'], { env: { CR_NOW: NOW } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[0]).toBe(`${SITE},Acme,acme.example,,${USER}`);
  });
});
