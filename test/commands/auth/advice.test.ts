import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { runCli } from '../../helpers/run-cli.js';
import { KEYS } from '../../helpers/fixture-store.js';
import { rpcErrorOf } from '../../../src/mcp-bridge/rpc-errors.js';
import { HttpFailure } from '../../../src/mcp-bridge/failures.js';
import { makeKey } from '../../helpers/tmp.js';

/** docs/cli-contract.md "Credentials" and §5: a wrong base URL or a refused key says what to do. */
const h = useHarness();

describe('a base URL that is not the API', () => {
  it('cr auth login refuses one without /api/v1 before asking for the key, and suggests it', async () => {
    const r = await runCli(['auth', 'login', '--base-url', 'http://127.0.0.1:4010'], { tty: { in: true, out: true, err: true } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('did you mean http://127.0.0.1:4010/api/v1?');
    expect(r.stderr).not.toContain('API key');
  });

  it('a URL of an endpoint is cut back to its /api/v1', async () => {
    const r = await runCli(['finance', 'summary', '--base-url', 'https://cms.example.com/api/v1/finance/summary'], { env: { CR_API_KEY: KEYS.editor } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('did you mean https://cms.example.com/api/v1?');
  });

  it('a 404 on a table path names the base URL as the likely cause', async () => {
    const wrong = h.serverBaseUrl.replace(/\/api\/v1$/, '/cms/api/v1');
    const r = await h.cr(['finance', 'summary'], { env: { CR_BASE_URL: wrong } });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain(`is ${wrong} the API's base URL`);
  });
});

describe('a refused key', () => {
  it('from CR_API_KEY: exit 3, names CR_API_KEY, and a local server gets local advice', async () => {
    const r = await h.cr(['finance', 'summary'], { key: KEYS.unknown });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the key came from CR_API_KEY');
    expect(r.stderr).toContain('cr local keys create');
    expect(r.stderr).not.toContain('admin interface');
  });

  it('from CR_API_KEY beside an active profile: never names a profile it did not read', async () => {
    const login = await runCli(['auth', 'login', '--profile', 'ops', '--base-url', h.baseUrl, '--with-key', '--no-verify'], { input: KEYS.unknown });
    expect(login.exitCode, login.stderr).toBe(0);
    const r = await runCli(['finance', 'summary', '--base-url', h.baseUrl], { configDir: login.configDir, env: { CR_API_KEY: KEYS.unknown } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the key came from CR_API_KEY');
    expect(r.stderr).not.toContain('profile "default"');
    expect(r.stderr).toContain('unset it to use the active profile');
  });

  it('from a profile: names the profile and the login to run', async () => {
    const login = await runCli(['auth', 'login', '--profile', 'ops', '--base-url', h.baseUrl, '--with-key', '--no-verify'], { input: KEYS.unknown });
    expect(login.exitCode, login.stderr).toBe(0);
    const r = await runCli(['finance', 'summary'], { configDir: login.configDir });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the key came from profile "ops"; run `cr auth login --profile ops`');
  });

  it('cr auth login with a rejected key: the code matches the message', async () => {
    const r = await runCli(['auth', 'login', '--base-url', h.baseUrl, '--with-key'], { input: KEYS.unknown });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('(INVALID_API_KEY)');
    expect(r.stderr).not.toContain('NO_API_KEY');
  });

  it('a malformed key typed for a local server points to cr local keys, for a deployment to the admin interface', async () => {
    const local = await runCli(['auth', 'login', '--base-url', 'http://127.0.0.1:4010/api/v1', '--with-key'], { input: 'cr_nope' });
    expect(local.exitCode).toBe(2);
    expect(local.stderr).toContain('cr local keys create');
    const remote = await runCli(['auth', 'login', '--base-url', 'https://cms.example.com/api/v1', '--with-key'], { input: 'cr_nope' });
    expect(remote.stderr).toContain('/integrations/api-keys in the admin interface');
  });

  it('over MCP the hint is where the key came from, not a profile it did not come from', () => {
    const e = rpcErrorOf(new HttpFailure(401, 'Missing or invalid API key', 'INVALID_API_KEY', undefined, undefined), {
      profile: 'default',
      keyAdvice: 'the key came from CR_API_KEY; set it to a valid key',
    });
    expect(e.message).toContain('the key came from CR_API_KEY');
    expect(e.message).not.toContain('--profile default');
  });
});

describe('cr auth login --profile', () => {
  it('says when the login changes the active profile', async () => {
    const key = makeKey('aaaa', 'bbbb', 'c');
    const first = await runCli(['auth', 'login', '--base-url', h.baseUrl, '--with-key', '--no-verify'], { input: key });
    const second = await runCli(['auth', 'login', '--profile', 'ci', '--base-url', h.baseUrl, '--with-key', '--no-verify'], {
      input: key,
      configDir: first.configDir,
    });
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toContain('"ci" is now the active profile (was "default")');
  });
});
