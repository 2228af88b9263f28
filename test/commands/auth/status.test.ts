import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { makeKey, tempDir, writeConfig } from '../../helpers/tmp.js';
import { useTestServer, ok } from '../../helpers/http-server.js';
import { financeData } from '../../helpers/fixtures.js';

const KEY = makeKey('1a2b', '9f0e', 'c');
const MASK = 'cr_1a2b…9f0e';

const server = useTestServer(ok(financeData()));

describe('cr auth status', () => {
  it('masks the key (cr_1a2b…9f0e); the whole key is never printed', async () => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
    const r = await runCli(['auth', 'status'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(MASK);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stdout).toContain(server.baseUrl);
    const j = await runCli(['auth', 'status', '--json'], { configDir });
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({
      profile: 'default',
      baseUrl: server.baseUrl,
      key: MASK,
      keySource: 'profile',
      baseUrlSource: 'profile',
      crmSegment: 'crm',
      rateLimit: null, // this stub sends no X-RateLimit-* headers; status-budget.test.ts has the real server's
    });
    expect(j.stdout + j.stderr).not.toContain(KEY);
  });

  it("shows a base URL's password as *** (the check that refuses it sets the exit code)", async () => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: 'http://bob:Sup3rSecret@127.0.0.1:9/api/v1', apiKey: KEY } } });
    const r = await runCli(['auth', 'status'], { configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('http://bob:***@127.0.0.1:9/api/v1 (from profile)');
    const j = await runCli(['auth', 'status', '--json'], { configDir });
    expect(j.exitCode).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ baseUrl: 'http://bob:***@127.0.0.1:9/api/v1', baseUrlSource: 'profile' });
    const e = await runCli(['auth', 'status', '--jq', '.baseUrl'], { env: { CR_API_KEY: KEY, CR_BASE_URL: 'http://bob:Sup3rSecret@127.0.0.1:9/api/v1' } });
    expect(e.stdout).toContain('bob:***@');
    for (const x of [r, j, e]) expect(x.stdout + x.stderr).not.toContain('Sup3r');
  });

  it('masks a CR_API_KEY from the environment too', async () => {
    const r = await runCli(['auth', 'status', '--json'], { env: { CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ key: MASK, keySource: 'env', baseUrlSource: 'env' });
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('--json with no key → exit 3, one JSON error line on stderr, nothing on stdout', async () => {
    const r = await runCli(['auth', 'status', '--json']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'NO_API_KEY', status: null });
  });

  it('without --json and no key → exit 3 with one error line', async () => {
    const r = await runCli(['auth', 'status']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: Not logged in.*\(NO_API_KEY\)\n$/);
  });
});
