import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey, tempDir, writeConfig } from '../../helpers/tmp.js';
import { startTestServer, ok, type TestServer } from '../../helpers/http-server.js';

// Three servers stand for three base URLs; three keys for three sources.
let flagSrv: TestServer;
let envSrv: TestServer;
let profSrv: TestServer;
let otherSrv: TestServer;
const ENV_KEY = makeKey('eeee', 'e001', '1');
const ACTIVE_KEY = makeKey('aaaa', 'a001', '2');
const NAMED_KEY = makeKey('bbbb', 'b001', '3');
const CRP_KEY = makeKey('cccc', 'c001', '4');

beforeAll(async () => {
  [flagSrv, envSrv, profSrv, otherSrv] = await Promise.all([0, 1, 2, 3].map(() => startTestServer(ok({ hello: 'world' }))));
});
afterEach(() => {
  for (const s of [flagSrv, envSrv, profSrv, otherSrv]) s.reset();
});
afterAll(async () => {
  await Promise.all([flagSrv, envSrv, profSrv, otherSrv].map((s) => s.close()));
  cleanupTempDirs();
});

/** active profile "main" → profSrv with ACTIVE_KEY; "named" → otherSrv with NAMED_KEY; "viaenv" → otherSrv with CRP_KEY; "nokey" → otherSrv, no key. */
function config(): string {
  const dir = tempDir();
  writeConfig(dir, {
    activeProfile: 'main',
    profiles: {
      main: { baseUrl: profSrv.baseUrl, apiKey: ACTIVE_KEY },
      named: { baseUrl: otherSrv.baseUrl, apiKey: NAMED_KEY },
      viaenv: { baseUrl: otherSrv.baseUrl, apiKey: CRP_KEY },
      nokey: { baseUrl: otherSrv.baseUrl },
    },
  });
  return dir;
}

async function status(args: string[], env: Record<string, string> = {}) {
  const r = await runCli([...args, 'auth', 'status', '--json'], { configDir: config(), env });
  expect(r.exitCode, r.stderr).toBe(0);
  // Its check request (for the rate budget) is not what the request counts below are about.
  for (const s of [flagSrv, envSrv, profSrv, otherSrv]) s.reset();
  return JSON.parse(r.stdout) as { profile: string; baseUrl: string; key: string; keySource: string; baseUrlSource: string };
}

/** Runs `cr api /ping` and returns which server got it, with which bearer. */
async function whoGets(args: string[], env: Record<string, string> = {}) {
  const r = await runCli([...args, 'api', '/ping'], { configDir: config(), env });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ hello: 'world' });
  const hits = [
    ['flag', flagSrv],
    ['env', envSrv],
    ['profile', profSrv],
    ['other', otherSrv],
  ].filter(([, s]) => (s as TestServer).requests.length > 0) as [string, TestServer][];
  expect(hits).toHaveLength(1);
  const [name, srv] = hits[0]!;
  expect(srv.requests).toHaveLength(1);
  expect(srv.requests[0]!.path).toBe('/api/v1/ping');
  return { server: name, auth: srv.requests[0]!.headers.authorization };
}

const mask = (k: string) => `cr_${k.slice(3, 7)}…${k.slice(-4)}`;

describe('base URL: --base-url > CR_BASE_URL > profile', () => {
  it('profile only', async () => {
    expect(await status([])).toMatchObject({ profile: 'main', baseUrl: profSrv.baseUrl, baseUrlSource: 'profile' });
    expect(await whoGets([])).toEqual({ server: 'profile', auth: `Bearer ${ACTIVE_KEY}` });
  });
  it('env over profile', async () => {
    const env = { CR_BASE_URL: envSrv.baseUrl };
    expect(await status([], env)).toMatchObject({ baseUrl: envSrv.baseUrl, baseUrlSource: 'env' });
    expect(await whoGets([], env)).toEqual({ server: 'env', auth: `Bearer ${ACTIVE_KEY}` });
  });
  it('flag over env and profile', async () => {
    const env = { CR_BASE_URL: envSrv.baseUrl };
    expect(await status(['--base-url', flagSrv.baseUrl], env)).toMatchObject({ baseUrl: flagSrv.baseUrl, baseUrlSource: 'flag' });
    expect(await whoGets(['--base-url', flagSrv.baseUrl], env)).toEqual({ server: 'flag', auth: `Bearer ${ACTIVE_KEY}` });
  });
  it('flag over profile', async () => {
    expect(await status(['--base-url', flagSrv.baseUrl])).toMatchObject({ baseUrl: flagSrv.baseUrl, baseUrlSource: 'flag' });
    expect(await whoGets(['--base-url', flagSrv.baseUrl])).toEqual({ server: 'flag', auth: `Bearer ${ACTIVE_KEY}` });
  });
  it('a profile named by --profile wins over CR_BASE_URL', async () => {
    const env = { CR_BASE_URL: envSrv.baseUrl };
    expect(await status(['--profile', 'named'], env)).toMatchObject({ profile: 'named', baseUrl: otherSrv.baseUrl, baseUrlSource: 'profile' });
    expect(await whoGets(['--profile', 'named'], env)).toEqual({ server: 'other', auth: `Bearer ${NAMED_KEY}` });
  });
  it('--base-url still wins over a profile named by --profile', async () => {
    const env = { CR_BASE_URL: envSrv.baseUrl };
    expect(await whoGets(['--profile', 'named', '--base-url', flagSrv.baseUrl], env)).toEqual({ server: 'flag', auth: `Bearer ${NAMED_KEY}` });
  });
  it('env only (no config file at all)', async () => {
    const r = await runCli(['api', '/ping'], { env: { CR_BASE_URL: envSrv.baseUrl, CR_API_KEY: ENV_KEY } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(envSrv.requests[0]!.headers.authorization).toBe(`Bearer ${ENV_KEY}`);
  });
});

describe('key: CR_API_KEY > profile, unless --profile names the profile', () => {
  it('profile only', async () => {
    expect(await status([])).toMatchObject({ key: mask(ACTIVE_KEY), keySource: 'profile' });
  });
  it('env over the active profile', async () => {
    const env = { CR_API_KEY: ENV_KEY };
    expect(await status([], env)).toMatchObject({ profile: 'main', key: mask(ENV_KEY), keySource: 'env' });
    expect(await whoGets([], env)).toEqual({ server: 'profile', auth: `Bearer ${ENV_KEY}` });
  });
  it('a profile named by --profile wins over CR_API_KEY', async () => {
    const env = { CR_API_KEY: ENV_KEY };
    expect(await status(['--profile', 'named'], env)).toMatchObject({ key: mask(NAMED_KEY), keySource: 'profile' });
    expect(await whoGets(['--profile', 'named'], env)).toEqual({ server: 'other', auth: `Bearer ${NAMED_KEY}` });
  });
  it('--profile naming a profile without a key falls back to CR_API_KEY', async () => {
    const env = { CR_API_KEY: ENV_KEY };
    expect(await status(['--profile', 'nokey'], env)).toMatchObject({ profile: 'nokey', key: mask(ENV_KEY), keySource: 'env' });
    expect(await whoGets(['--profile', 'nokey'], env)).toEqual({ server: 'other', auth: `Bearer ${ENV_KEY}` });
  });
  it('a profile chosen by CR_PROFILE does not beat CR_API_KEY', async () => {
    const env = { CR_API_KEY: ENV_KEY, CR_PROFILE: 'viaenv' };
    expect(await status([], env)).toMatchObject({ profile: 'viaenv', key: mask(ENV_KEY), keySource: 'env' });
    expect(await whoGets([], env)).toEqual({ server: 'other', auth: `Bearer ${ENV_KEY}` });
  });
  it('--profile naming a missing profile with no env key → exit 3', async () => {
    const r = await runCli(['--profile', 'ghost', 'api', '/ping'], { configDir: config() });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: No API key for profile "ghost"/);
  });
});

describe('profile: --profile > CR_PROFILE > active', () => {
  it('active only', async () => {
    expect((await status([])).profile).toBe('main');
  });
  it('CR_PROFILE over active', async () => {
    expect(await status([], { CR_PROFILE: 'viaenv' })).toMatchObject({ profile: 'viaenv', key: mask(CRP_KEY), baseUrl: otherSrv.baseUrl });
    expect(await whoGets([], { CR_PROFILE: 'viaenv' })).toEqual({ server: 'other', auth: `Bearer ${CRP_KEY}` });
  });
  it('--profile over CR_PROFILE and active', async () => {
    expect(await status(['--profile', 'named'], { CR_PROFILE: 'viaenv' })).toMatchObject({ profile: 'named', key: mask(NAMED_KEY) });
    expect(await whoGets(['--profile', 'named'], { CR_PROFILE: 'viaenv' })).toEqual({ server: 'other', auth: `Bearer ${NAMED_KEY}` });
  });
  it('--profile over active', async () => {
    expect(await status(['--profile', 'named'])).toMatchObject({ profile: 'named', key: mask(NAMED_KEY) });
  });
  it('--profile after the command word works the same', async () => {
    const r = await runCli(['auth', 'status', '--json', '--profile', 'named'], { configDir: config() });
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'named' });
  });
});
