import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { makeKey } from '../../helpers/tmp.js';
import { useTestServer, ok, fail, deadPort, type Reply } from '../../helpers/http-server.js';

const KEY = makeKey('1a2b', '9f0e', '5');
const server = useTestServer(ok({ hello: 'world' }));

const env = () => ({ CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl });
const api = (args: string[], opts: { input?: string; env?: Record<string, string | undefined> } = {}) => runCli(['api', ...args], { input: opts.input, env: { ...env(), ...opts.env } });

describe('cr api: exit codes from HTTP statuses', () => {
  const cases: [string, Reply, number, string | undefined][] = [
    ['401', fail(401, 'Invalid API key', 'INVALID_API_KEY'), 3, 'INVALID_API_KEY'],
    ['403', fail(403, 'Insufficient role', 'FORBIDDEN'), 4, 'FORBIDDEN'],
    // No code from the server: the CLI's own stable one.
    ['404', fail(404, 'Post not found'), 5, 'NOT_FOUND'],
    ['400', fail(400, 'Invalid query', 'VALIDATION_ERROR', { details: [{ path: 'limit', message: 'Too big' }] }), 6, 'VALIDATION_ERROR'],
    ['409', fail(409, 'Already published', 'CONFLICT'), 6, 'CONFLICT'],
    ['413', fail(413, 'Body too large', 'PAYLOAD_TOO_LARGE'), 6, 'PAYLOAD_TOO_LARGE'],
    ['415', fail(415, 'Content-Type must be application/json', 'UNSUPPORTED_MEDIA_TYPE'), 6, 'UNSUPPORTED_MEDIA_TYPE'],
    ['429', { ...fail(429, 'Rate limit exceeded', 'RATE_LIMITED'), headers: { 'retry-after': '120' } }, 7, 'RATE_LIMITED'],
    ['500', fail(500, 'Internal error', 'INTERNAL_ERROR'), 8, 'INTERNAL_ERROR'],
  ];

  for (const [name, reply, exit, code] of cases) {
    it(`${name} → exit ${exit}, one error line, nothing on stdout`, async () => {
      server.handle(reply);
      const r = await api(['/some/path']);
      expect(r.exitCode).toBe(exit);
      expect(r.stdout).toBe('');
      const status = Number(name);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: /);
      expect(lines[0]).toContain((reply.body as { error: string }).error);
      expect(lines[0]).toContain(`GET ${server.baseUrl}/some/path`);
      if (code) expect(lines[0]!.endsWith(`(${code})`)).toBe(true);
      if (status === 429) expect(lines[0]).toMatch(/retry after \d{2}:\d{2} \(in 2 min\)/);
      if (status === 400) expect(lines[0]).toContain('limit: Too big');
      // Only 502/503/504 are retried; none of these.
      expect(server.requests).toHaveLength(1);
      expect(r.stderr).not.toContain(KEY);
    });

    it(`${name} with --json → one JSON line {error, code, status} on stderr`, async () => {
      server.handle(reply);
      const r = await api(['/some/path', '--json']);
      expect(r.exitCode).toBe(exit);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n')).toBe(true);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const parsed = JSON.parse(lines[0]!);
      expect(Object.keys(parsed).sort()).toEqual(['code', 'error', 'status']);
      expect(parsed.status).toBe(Number(name));
      expect(parsed.code).toBe(code ?? null);
      expect(parsed.error).toContain((reply.body as { error: string }).error);
      // The API's words for scripts; the request itself only in the text form.
      expect(parsed.error).not.toContain('/some/path');
      if (![400, 429].includes(Number(name))) expect(parsed.error).toBe((reply.body as { error: string }).error);
    });
  }

  it('503 on GET is retried: 3 attempts, then exit 8', async () => {
    server.handle(fail(503, 'Unavailable', 'UNAVAILABLE'));
    const r = await api(['/some/path']);
    expect(r.exitCode).toBe(8);
    expect(server.requests).toHaveLength(3);
  });

  it('503 then 200 on GET → exit 0 with the data', async () => {
    server.queue(fail(503, 'Unavailable'));
    const r = await api(['/some/path']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hello: 'world' });
    expect(server.requests).toHaveLength(2);
  });

  it('503 on POST is not retried → exit 8 after one attempt', async () => {
    server.handle(fail(503, 'Unavailable'));
    const r = await api(['/some/path', '-X', 'POST']);
    expect(r.exitCode).toBe(8);
    expect(server.requests).toHaveLength(1);
  });

  it('unreachable server → exit 8 naming the failure', async () => {
    const port = await deadPort();
    const r = await api(['/some/path'], { env: { CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/^error: Connection refused.*\(NETWORK_ERROR\)$/m);
    const j = await api(['/some/path', '--json'], { env: { CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(j.exitCode).toBe(8);
    expect(JSON.parse(j.stderr.trim())).toMatchObject({ code: 'NETWORK_ERROR', status: null });
  });

  it('a timeout (--timeout 0.3 against a slow server) → exit 8', async () => {
    server.handle({ ...ok({}), delayMs: 3000 });
    const r = await runCli(['--timeout', '0.3', 'api', '/slow'], { env: env() });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/Timed out after 0\.3 s/);
  });

  it('a malformed body → exit 1 (BAD_RESPONSE)', async () => {
    server.handle({ status: 200, body: '{"success": tr' });
    const r = await api(['/x']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: Unexpected response .*non-JSON body.*\(BAD_RESPONSE\)$/m);
  });

  it('no key configured → exit 3, nothing sent', async () => {
    const r = await api(['/x'], { env: { CR_API_KEY: undefined } });
    expect(r.exitCode).toBe(3);
    expect(server.requests).toHaveLength(0);
  });
});

describe('usage errors → exit 2 with one `error:` line, nothing sent', () => {
  const usage: [string, string[]][] = [
    ['unknown command', ['frobnicate']],
    ['unknown flag', ['api', '/x', '--bogus']],
    ['unknown global flag', ['--bogus', 'api', '/x']],
    ['bad --timeout', ['--timeout', 'abc', 'api', '/x']],
    ['negative --timeout', ['--timeout', '-1', 'api', '/x']],
    ['zero --timeout', ['--timeout', '0', 'api', '/x']],
    ['missing argument', ['api']],
    ['bad -X', ['api', '/x', '-X', 'FETCH']],
    ['bad -F', ['api', '/x', '-F', 'novalue']],
    ['bad --input JSON', ['api', '/x', '--input', '-']],
  ];
  for (const [name, args] of usage) {
    it(name, async () => {
      const r = await runCli(args, { env: env(), input: name === 'bad --input JSON' ? '{nope' : undefined });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      const errLines = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
      expect(errLines).toHaveLength(1);
      expect(errLines[0]).toMatch(/\(USAGE\)$/);
      expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('unknown command with --json → JSON error line', async () => {
    const r = await runCli(['frobnicate', '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr.trim())).toEqual({ error: expect.stringContaining('frobnicate'), code: 'USAGE', status: null });
  });
});
