import { MockAgent } from 'undici';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey, readConfig } from '../../helpers/tmp.js';
import { financeData } from '../../helpers/fixtures.js';

/**
 * An undici MockAgent given to the run (ctx.dispatcher): every request of the command
 * goes through it. The base URL's host does not resolve and net connect is off, so an
 * answer can only come from the mock.
 */
const ORIGIN = 'http://api.invalid';
const BASE = `${ORIGIN}/api/v1`;
const KEY = makeKey('1a2b', '9f0e', '6');

let agent: MockAgent;
beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  await agent.close();
});
afterAll(() => cleanupTempDirs());

const json = { headers: { 'content-type': 'application/json' } };

describe('HTTP through an injected dispatcher', () => {
  it('an area command reads its data from the mock', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v1/finance/summary', method: 'GET' }).reply(200, { success: true, data: financeData() }, json);
    const r = await runCli(['finance', 'summary', '--json'], { env: { CR_BASE_URL: BASE, CR_API_KEY: KEY }, dispatcher: agent });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(financeData());
    agent.assertNoPendingInterceptors();
  });

  it('a socket error on GET is retried twice, then exit 8 (NETWORK_ERROR)', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v1/x', method: 'GET' }).replyWithError(new Error('socket hang up')).times(3);
    const r = await runCli(['api', '/x', '--json'], { env: { CR_BASE_URL: BASE, CR_API_KEY: KEY }, dispatcher: agent });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ code: 'NETWORK_ERROR', status: null });
    agent.assertNoPendingInterceptors();
  });

  it('auth login verifies the key through it before storing', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v1/finance/summary', method: 'GET', headers: { authorization: `Bearer ${KEY}` } })
      .reply(200, { success: true, data: financeData() }, json);
    const r = await runCli(['auth', 'login', '--base-url', BASE, '--with-key'], { input: KEY, dispatcher: agent });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not verified');
    expect(readConfig(r.configDir)!.profiles.default!.apiKey).toBe(KEY);
    agent.assertNoPendingInterceptors();
  });
});
