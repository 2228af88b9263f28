import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, readConfig } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey, tempDir, writeConfig } from '../helpers/tmp.js';
import { startTestServer, ok, fail, type TestServer } from '../helpers/http-server.js';
import { financeData } from '../helpers/fixtures.js';

const KEY = makeKey('1a2b', '9f0e', 'c');
const MASK = 'cr_1a2b…9f0e';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(ok(financeData()));
});
afterEach(() => {
  server.reset();
  server.handle(ok(financeData()));
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

const mode = (p: string) => statSync(p).mode & 0o777;

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
    for (const bad of ['not-a-key', 'cr_' + 'A'.repeat(40), 'cr_' + 'a'.repeat(39), '']) {
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

  it('config file is 0600 and folder 0700 even under umask 000', async () => {
    const parent = tempDir('cr-umask-');
    const configDir = join(parent, 'nested', 'cr');
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir, umask: '000' });
    expect(r.exitCode).toBe(0);
    expect(mode(configDir)).toBe(0o700);
    expect(mode(join(configDir, 'config.json'))).toBe(0o600);
    // A second write (another profile) keeps the modes.
    const r2 = await runCli(['auth', 'login', '--profile', 'b', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir, umask: '000' });
    expect(r2.exitCode).toBe(0);
    expect(mode(configDir)).toBe(0o700);
    expect(mode(join(configDir, 'config.json'))).toBe(0o600);
    expect(Object.keys(readConfig(configDir)!.profiles).sort()).toEqual(['b', 'default']);
  });

  it('warns on stderr when the config file is readable by others', async () => {
    const configDir = tempDir();
    const file = writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
    const { chmodSync } = await import('node:fs');
    chmodSync(file, 0o644);
    const r = await runCli(['profiles', 'list'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning: .*config\.json is readable by others/);
  });
});

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
    });
    expect(j.stdout + j.stderr).not.toContain(KEY);
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

describe('cr auth logout', () => {
  it('removes the key of the active profile, keeps its base URL; status then exits 3', async () => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
    const r = await runCli(['auth', 'logout'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(readConfig(configDir)!.profiles.default).toEqual({ baseUrl: server.baseUrl });
    expect((await runCli(['auth', 'status'], { configDir })).exitCode).toBe(3);
  });

  it('--profile removes only that profile\'s key', async () => {
    const configDir = tempDir();
    const other = makeKey('aaaa', 'bbbb', 'd');
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY }, staging: { baseUrl: 'http://s.example/api/v1', apiKey: other } } });
    const r = await runCli(['auth', 'logout', '--profile', 'staging'], { configDir });
    expect(r.exitCode).toBe(0);
    const cfg = readConfig(configDir)!;
    expect(cfg.profiles.staging).toEqual({ baseUrl: 'http://s.example/api/v1' });
    expect(cfg.profiles.default!.apiKey).toBe(KEY);
    expect(cfg.activeProfile).toBe('default');
  });
});

describe('cr profiles', () => {
  const setup = () => {
    const configDir = tempDir();
    writeConfig(configDir, {
      activeProfile: 'prod',
      profiles: {
        prod: { baseUrl: 'http://prod.example/api/v1', apiKey: KEY },
        staging: { baseUrl: 'http://staging.example/api/v1', apiKey: makeKey('5555', '6666', 'e') },
        empty: { baseUrl: 'http://empty.example/api/v1' },
      },
    });
    return configDir;
  };

  it('list --json: sorted, active marked, keys masked', async () => {
    const configDir = setup();
    const r = await runCli(['profiles', 'list', '--json'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'empty', active: false, baseUrl: 'http://empty.example/api/v1', key: null, crmSegment: 'crm' },
      { name: 'prod', active: true, baseUrl: 'http://prod.example/api/v1', key: MASK, crmSegment: 'crm' },
      { name: 'staging', active: false, baseUrl: 'http://staging.example/api/v1', key: 'cr_5555…6666', crmSegment: 'crm' },
    ]);
    expect(r.stdout).not.toContain(KEY);
  });

  it('list piped: plain TSV rows, no colour', async () => {
    const configDir = setup();
    const r = await runCli(['profiles', 'list'], { configDir, env: { NO_COLOR: undefined } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      ['\tempty\thttp://empty.example/api/v1\t(none)', `*\tprod\thttp://prod.example/api/v1\t${MASK}`, '\tstaging\thttp://staging.example/api/v1\tcr_5555…6666'].join('\n') + '\n',
    );
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('list with no profiles: [] in JSON, exit 0', async () => {
    const r = await runCli(['profiles', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('use NAME switches the active profile (seen by auth status)', async () => {
    const configDir = setup();
    const r = await runCli(['profiles', 'use', 'staging'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(readConfig(configDir)!.activeProfile).toBe('staging');
    const s = await runCli(['auth', 'status', '--json'], { configDir });
    expect(JSON.parse(s.stdout)).toMatchObject({ profile: 'staging', key: 'cr_5555…6666', baseUrl: 'http://staging.example/api/v1' });
  });

  it('use of an unknown profile → exit 2, nothing changed', async () => {
    const configDir = setup();
    const r = await runCli(['profiles', 'use', 'nope'], { configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: No profile named "nope"/);
    expect(readConfig(configDir)!.activeProfile).toBe('prod');
  });

  it('remove NAME deletes the profile; removing the active one leaves none active', async () => {
    const configDir = setup();
    expect((await runCli(['profiles', 'remove', 'staging'], { configDir })).exitCode).toBe(0);
    let cfg = readConfig(configDir)!;
    expect(Object.keys(cfg.profiles).sort()).toEqual(['empty', 'prod']);
    expect(cfg.activeProfile).toBe('prod');
    expect((await runCli(['profiles', 'remove', 'prod'], { configDir })).exitCode).toBe(0);
    cfg = readConfig(configDir)!;
    expect(Object.keys(cfg.profiles)).toEqual(['empty']);
    expect(cfg.activeProfile).toBeUndefined();
    expect(JSON.stringify(cfg)).not.toContain(KEY);
    expect((await runCli(['profiles', 'remove', 'prod'], { configDir })).exitCode).toBe(2);
  });
});
