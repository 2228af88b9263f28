import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore } from '../../helpers/store-under-test.js';
import { AT, cliAt, csvPlan, ids, startBulkServer } from '../../bulk/support.js';

/** What docs/fixtures.md and docs/bulk-scheduling.md say about ids and resends holds. */
afterAll(() => cleanupTempDirs());

describe('docs agree with the code', () => {
  it('fixtures.md: a user id is any string, except that a business entity owner_id must be a uuid', async () => {
    const page = readFileSync(join(ROOT, 'docs', 'fixtures.md'), 'utf8');
    expect(page).toMatch(/business entity[^.]*`owner_id`,\s+which\s+must\s+be\s+a\s+UUID/);
    const dir = tempDir('cr-docs-ids-');
    const file = join(dir, 'fx.json');
    writeFileSync(
      file,
      JSON.stringify({
        users: [{ id: 'u-1', email: 'a@b.c', name: 'U' }],
        business_entities: [{ id: '0e000000-0000-4000-8000-000000000001', name: 'E', accounting_tenant_id: null, owner_id: 'u-1', created_at: '2026-01-01T00:00:00Z' }],
      }),
    );
    const r = await runCli(['local', 'seed', file, '--store', await newStore(dir)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('$.business_entities[0].owner_id: expected a UUID');
  });

  it('bulk-scheduling.md: a row already scheduled at the same instant, sent again, is accepted (200), as cli-contract.md says', async () => {
    const page = readFileSync(join(ROOT, 'docs', 'bulk-scheduling.md'), 'utf8');
    expect(page).not.toContain('refuses the ones already scheduled');
    expect(page).toMatch(/scheduled again\s+\(the server accepts it, 200/);
    expect(readFileSync(join(ROOT, 'docs', 'cli-contract.md'), 'utf8')).toContain('rescheduling a post to the same instant is\n  idempotent');
    const srv = await startBulkServer(2);
    try {
      const plan = csvPlan(tempDir('cr-docs-ids-'), ids(2), AT);
      for (let i = 0; i < 2; i++) {
        const r = await cliAt(srv.baseUrl, ['posts', 'schedule', '--from', plan]);
        expect(r.exitCode, r.stderr).toBe(0);
      }
      expect(srv.requests().map((q) => q.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await srv.close();
    }
  });
});
