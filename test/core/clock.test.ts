import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { makeKey, tempDir } from '../helpers/tmp.js';
import { useTestServer, ok } from '../helpers/http-server.js';
import { financeData } from '../helpers/fixtures.js';

/**
 * CR_NOW (docs/api-decisions.md §5) is read once per process, by the context (src/now.ts), which
 * hands that clock to the embedded and served server too. A value that is no ISO date-time
 * is a usage error (exit 2) where it is first needed, never a crash at start-up.
 */
const server = useTestServer(ok(financeData()));

const BAD = { CR_NOW: 'next tuesday' };
const USAGE_LINE = 'error: CR_NOW is not an ISO 8601 date-time: next tuesday (USAGE)\n';

describe('CR_NOW', () => {
  it('a bad value does not stop commands that never ask the time', async () => {
    const r = await runCli(['--help'], { env: BAD });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Commands:');
  });

  it('a bad value is a usage error on a command that shows dates', async () => {
    const r = await runCli(['finance', 'summary'], { env: { ...BAD, CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(USAGE_LINE);
  });

  it('a date without a time is refused, as the local server refuses it', async () => {
    const r = await runCli(['finance', 'summary'], { env: { CR_NOW: '2026-01-01', CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('CR_NOW is not an ISO 8601 date-time: 2026-01-01');
  });

  it('cr serve and --local refuse a bad value before starting anything (no store is made)', async () => {
    const store = join(tempDir(), 'store.json');
    for (const args of [
      ['serve', '--port', '0'],
      ['--local', 'finance', 'summary'],
    ]) {
      const r = await runCli(args, { env: { ...BAD, CR_STORE: store } });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(USAGE_LINE);
      expect(existsSync(store)).toBe(false);
    }
  });
});
