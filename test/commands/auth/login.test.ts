import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { makeKey, readConfig } from '../../helpers/tmp.js';
import { useTestServer, ok, fail } from '../../helpers/http-server.js';
import { financeData } from '../../helpers/fixtures.js';

const KEY = makeKey('1a2b', '9f0e', 'c');
const MASK = 'cr_1a2b…9f0e';

const server = useTestServer(ok(financeData()));

function expectNoKeyStored(configDir: string) {
  const cfg = readConfig(configDir);
  const profiles = cfg?.profiles ?? {};
  for (const p of Object.values(profiles)) expect(p.apiKey).toBeUndefined();
  expect(JSON.stringify(cfg ?? {})).not.toContain('cr_');
}

describe('cr auth login --with-key', () => {
  it('stores the key read from stdin (--no-verify), masks it in the notice, sends nothing', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY + '\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(MASK);
    expect(r.stderr).toContain('not verified');
    expect(r.stderr + r.stdout).not.toContain(KEY);
    expect(readConfig(r.configDir)).toEqual({ activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
    expect(server.requests).toHaveLength(0);
  });

  it('takes the base URL from CR_BASE_URL when --base-url is not given', async () => {
    const r = await runCli(['auth', 'login', '--with-key', '--no-verify'], { input: KEY, env: { CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readConfig(r.configDir)).toEqual({ activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
  });

  it('stores under --profile and makes it active', async () => {
    const r = await runCli(['auth', 'login', '--profile', 'ci', '--base-url', server.baseUrl + '/', '--with-key', '--no-verify'], { input: KEY });
    expect(r.exitCode).toBe(0);
    const cfg = readConfig(r.configDir)!;
    expect(cfg.activeProfile).toBe('ci');
    expect(cfg.profiles.ci).toEqual({ baseUrl: server.baseUrl, apiKey: KEY });
  });

  it('stores under the profile named by CR_PROFILE (as logout and status read it)', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, env: { CR_PROFILE: 'fromenv' } });
    expect(r.exitCode).toBe(0);
    const cfg = readConfig(r.configDir)!;
    expect(Object.keys(cfg.profiles)).toEqual(['fromenv']);
    const s = await runCli(['auth', 'status', '--json'], { configDir: r.configDir, env: { CR_PROFILE: 'fromenv' } });
    expect(s.exitCode).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ profile: 'fromenv', key: MASK });
  });

  it('verifies the key against the server (finance summary) before storing it', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key'], { input: KEY });
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.path).toBe('/api/v1/finance/summary');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.stderr).not.toContain('not verified');
    expect(readConfig(r.configDir)!.profiles.default!.apiKey).toBe(KEY);
  });

  it('checks the key with the same client as every command: GET retries on its base, --verbose masks the key', async () => {
    server.queue(fail(503, 'Service unavailable'));
    const r = await runCli(['--verbose', 'auth', 'login', '--base-url', server.baseUrl, '--with-key'], { input: KEY, env: { CR_RETRY_BASE_MS: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/retrying after HTTP 503 in [01] ms/);
    expect(r.stderr).toContain(`Bearer ${MASK}`);
    expect(r.stderr).not.toContain(KEY);
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^cr\/\d+\.\d+\.\d+ node\//);
  });

  it('a key the server rejects (401) → exit 3 and nothing stored', async () => {
    server.handle(fail(401, 'Invalid API key', 'INVALID_API_KEY'));
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key'], { input: KEY });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: .*rejected the key cr_1a2b…9f0e.*nothing was stored/m);
    expect(r.stderr + r.stdout).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
    expectNoKeyStored(r.configDir);
  });

  it('a wrong key format → exit 2, nothing sent, nothing stored', async () => {
    for (const bad of ['not-a-key', 'cr_' + 'A'.repeat(40), 'cr_' + 'a'.repeat(39)]) {
      const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key'], { input: bad });
      expect(r.exitCode, `key ${JSON.stringify(bad)}`).toBe(2);
      expect(r.stderr).toMatch(/^error: That is not an API key.*\(USAGE\)$/m);
      expectNoKeyStored(r.configDir);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('without a base URL anywhere → exit 2 naming --base-url', async () => {
    const r = await runCli(['auth', 'login', '--with-key', '--no-verify'], { input: KEY });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--base-url');
    expectNoKeyStored(r.configDir);
  });

  it('off a terminal without --with-key → exit 2, asks nothing, names the flag', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--no-verify'], { input: KEY });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--with-key');
    expectNoKeyStored(r.configDir);
  });
});
