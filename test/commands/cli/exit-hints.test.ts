import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { useHarness } from '../../helpers/harness.js';
import { POST_MISSING } from '../../helpers/fixture-store.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

/** Exit codes and hints of failures that name a flag (docs/cli-contract.md §5). */
const h = useHarness();
afterAll(() => cleanupTempDirs());

describe('the exit code says what to fix', () => {
  it('--dry-run without a base URL is a usage error naming --base-url and CR_BASE_URL, not a missing key', async () => {
    const r = await runCli(['posts', 'schedule', POST_MISSING, '--at', '+1h', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: No base URL .*; pass --base-url URL or set CR_BASE_URL \(USAGE\)\n$/);
  });

  it('cr local init on an existing store: exit 2 naming --force; --force replaces it', async () => {
    const store = join(tempDir(), 'store.json');
    const first = await runCli(['local', 'init', '--store', store]);
    expect(first.exitCode, first.stderr).toBe(0);
    const again = await runCli(['local', 'init', '--store', store], { configDir: first.configDir });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`a store already exists at ${store}; pass --force`);
    const forced = await runCli(['local', 'init', '--store', store, '--force'], { configDir: first.configDir });
    expect(forced.exitCode, forced.stderr).toBe(0);
  });

  it('cr serve on a port in use: exit 1, ADDRESS_IN_USE, the address named', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    try {
      const r = await runCli(['serve', '--port', String(port), '--store', join(tempDir(), 'store.json')]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`127.0.0.1:${port} is already in use; pick another with --port`);
      expect(r.stderr).toMatch(/\(ADDRESS_IN_USE\)\n$/);
      expect(r.stderr).not.toContain('INTERNAL');
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });

  it.each([
    [['learnings', 'list', '--limit', '1000'], '--limit must be at most 200, got 1000'],
    [['nurture', 'list', '--limit', '201'], '--limit must be at most 200, got 201'],
  ])('%j is checked before sending (exit 2)', async (argv, message) => {
    h.seen.length = 0;
    const r = await h.cr(argv);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(h.seen).toHaveLength(0);
  });

  it('an unknown post has the stable code NOT_FOUND on the CLI side, exit 5', async () => {
    const r = await h.cr(['posts', 'schedule', POST_MISSING, '--at', '+1h', '--json']);
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stderr)).toEqual({ error: 'Not found', code: 'NOT_FOUND', status: 404 });
    const text = await h.cr(['posts', 'schedule', POST_MISSING, '--at', '+1h']);
    expect(text.stderr).toMatch(/^error: Not found \(POST .*\) \(NOT_FOUND\)\n$/);
  });
});
