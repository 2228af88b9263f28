import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { makeKey, readConfig, tempDir } from '../../helpers/tmp.js';
import { useTestServer, ok } from '../../helpers/http-server.js';
import { financeData } from '../../helpers/fixtures.js';
import { KEY, profilesConfig } from '../../helpers/profiles-config.js';

/** Edge cases of keys, base URLs, profiles and the config folder (docs/cli-contract.md §3). */
const server = useTestServer(ok(financeData()));

const mode = (p: string) => statSync(p).mode & 0o7777;

describe('keys from the environment', () => {
  it('CR_API_KEY with a trailing newline is trimmed and works', async () => {
    const r = await runCli(['finance', 'summary', '--json'], { env: { CR_API_KEY: `${KEY}\n`, CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a malformed CR_API_KEY is a usage error naming the variable; nothing sent, no retry', async () => {
    const bad = 'cr_123456789';
    const r = await runCli(['finance', 'summary'], { env: { CR_API_KEY: bad, CR_BASE_URL: server.baseUrl } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: CR_API_KEY is not an API key \(cr_… \(12 chars\)\)/);
    expect(r.stderr).not.toContain(bad);
    expect(server.requests).toHaveLength(0);
  });

  it('a base URL with user:password@ is refused with the password hidden', async () => {
    const url = `http://ops:hunter2@127.0.0.1:${server.port}/api/v1`;
    for (const run of [
      () => runCli(['finance', 'summary'], { env: { CR_API_KEY: KEY, CR_BASE_URL: url } }),
      () => runCli(['auth', 'login', '--base-url', url, '--with-key', '--no-verify'], { input: KEY }),
    ]) {
      const r = await run();
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('ops:***@127.0.0.1');
      expect(r.stderr).toContain('remove "user:password@"');
      expect(r.stderr).not.toContain('hunter2');
      expect(readConfig(r.configDir)).toBeUndefined();
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a base URL no parser reads (a bare # or / in the password) is refused without echoing the password', async () => {
    for (const url of [
      `http://ops:hun#ter2@127.0.0.1:${server.port}/api/v1`,
      `http://ops:hun/ter2@127.0.0.1:${server.port}/api/v1`,
      `http://ops:hun?ter2@127.0.0.1:99999/api/v1`,
      `ops:hunter2@127.0.0.1:${server.port}/api/v1`,
    ]) {
      for (const run of [
        () => runCli(['finance', 'summary'], { env: { CR_API_KEY: KEY, CR_BASE_URL: url } }),
        () => runCli(['finance', 'summary', '--base-url', url], { env: { CR_API_KEY: KEY } }),
        () => runCli(['auth', 'login', '--base-url', url, '--with-key', '--no-verify'], { input: KEY }),
      ]) {
        const r = await run();
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stderr).toContain('ops:***@');
        expect(r.stderr).not.toContain('ter2');
      }
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('profiles', () => {
  it('--profile "" is refused (exit 2) and nothing is stored', async () => {
    const r = await runCli(['--profile', '', 'auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--profile needs a name');
    expect(readConfig(r.configDir)).toBeUndefined();
  });

  it('removing the active profile says what is active now and how to pick one', async () => {
    const configDir = profilesConfig();
    const r = await runCli(['profiles', 'remove', 'prod'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('No profile is active now; pick one with `cr profiles use NAME` (empty, staging)');
    const rest = await runCli(['profiles', 'remove', 'staging'], { configDir });
    expect(rest.stderr).not.toContain('active now');
    await runCli(['profiles', 'use', 'empty'], { configDir });
    const last = await runCli(['profiles', 'remove', 'empty'], { configDir });
    expect(last.stderr).toContain('No profiles are left; run `cr auth login`');
  });

  it('read-only commands create no config file or folder', async () => {
    const home = tempDir();
    const configDir = join(home, 'cfg');
    const env = { CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl };
    for (const argv of [
      ['auth', 'status'],
      ['profiles', 'list'],
      ['finance', 'summary'],
      ['--profile', 'x', 'finance', 'summary'],
    ]) {
      await runCli(argv, { configDir, env: { ...env, HOME: home } });
      expect(existsSync(configDir), argv.join(' ')).toBe(false);
    }
  });
});

describe('cr auth login', () => {
  it('empty standard input says so', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key'], { input: '\n' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: No key: standard input was empty/);
    expect(server.requests).toHaveLength(0);
  });

  it('--json prints the stored profile, key masked', async () => {
    const r = await runCli(['auth', 'login', '--json', '--profile', 'ci', '--base-url', server.baseUrl, '--with-key'], { input: KEY });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'ci', baseUrl: server.baseUrl, key: 'cr_1a2b…9f0e', verified: true, active: true, crmSegment: 'crm' });
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});

describe('the config folder', () => {
  it('a folder others can write (1777, like /tmp) is refused for keys and left as it was', async () => {
    const shared = join(tempDir(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir: shared });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`Refusing to store keys in ${shared}: other users can write to it (mode 1777)`);
    expect(mode(shared)).toBe(0o1777);
    expect(readdirSync(shared)).toEqual([]);
    chmodSync(shared, 0o775);
    const group = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir: shared });
    expect(group.exitCode).toBe(1);
  });

  it('a private folder cr did not create keeps its mode; the file is 0600', async () => {
    const mine = join(tempDir(), 'mine');
    mkdirSync(mine);
    chmodSync(mine, 0o755);
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: KEY, configDir: mine });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(mode(mine)).toBe(0o755);
    expect(mode(join(mine, 'config.json'))).toBe(0o600);
  });

  it('a folder cr creates is 0700', async () => {
    const fresh = join(tempDir(), 'a', 'cr');
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--no-verify'], { input: makeKey(), configDir: fresh });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(mode(fresh)).toBe(0o700);
  });
});
