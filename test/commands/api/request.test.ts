import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { PKG_VERSION } from '../../helpers/paths.js';
import { makeKey, tempDir } from '../../helpers/tmp.js';
import { useTestServer, ok, fail } from '../../helpers/http-server.js';

const KEY = makeKey('1a2b', '9f0e', '5');
const server = useTestServer(ok({ hello: 'world' }));

const env = () => ({ CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl });
const api = (args: string[], opts: { input?: string; env?: Record<string, string | undefined> } = {}) => runCli(['api', ...args], { input: opts.input, env: { ...env(), ...opts.env } });

describe('cr api: requests', () => {
  it('GET prints the envelope data as 2-space JSON', async () => {
    server.handle(ok({ list: [1, 2], nested: { a: null } }, { meta: { total: 2 } }));
    const r = await api(['/finance/summary']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(JSON.stringify({ list: [1, 2], nested: { a: null } }, null, 2) + '\n');
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.path).toBe('/api/v1/finance/summary');
  });

  it('a path that climbs out of the base URL (.. or %2e%2e) is a usage error and sends nothing', async () => {
    for (const path of ['../../x', '/%2e%2e/%2e%2e/admin', '/finance/../../../x']) {
      const r = await api([path]);
      expect(r.exitCode, path).toBe(2);
      expect(r.stderr, path).toContain('leaves the base URL');
    }
    expect(server.requests).toHaveLength(0);
    expect((await api(['/finance/../finance/summary'])).exitCode).toBe(0);
  });

  it('sends Authorization: Bearer <key> and User-Agent cr/<version> node/<version>', async () => {
    await api(['/x']);
    const h = server.requests[0]!.headers;
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h['user-agent']).toBe(`cr/${PKG_VERSION} node/${process.versions.node}`);
  });

  it('a leading /api/v1 in the path is not doubled', async () => {
    await api(['/api/v1/finance/summary']);
    expect(server.requests[0]!.path).toBe('/api/v1/finance/summary');
  });

  it('-F fields build a typed JSON body and imply POST', async () => {
    const r = await api(['/content/listeners', '-F', 'a=1', '-F', 'b=true', '-F', 'c=null', '-F', 'd[e]=x', '-F', 'f[]=p', '-F', 'f[]=q', '-F', 'g=1.5', '-F', 'h=false', '-F', 's=01x']);
    expect(r.exitCode, r.stderr).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ a: 1, b: true, c: null, d: { e: 'x' }, f: ['p', 'q'], g: 1.5, h: false, s: '01x' });
  });

  it('exactly the -F a=1 -F b=true -F c=null -F d[e]=x body', async () => {
    await api(['/x', '-F', 'a=1', '-F', 'b=true', '-F', 'c=null', '-F', 'd[e]=x']);
    expect(server.requests[0]!.body).toBe(JSON.stringify({ a: 1, b: true, c: null, d: { e: 'x' } }));
  });

  it('-F @file reads the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'from a file');
    await api(['/x', '-F', `note=@${file}`]);
    expect(server.requests[0]!.json).toEqual({ note: 'from a file' });
  });

  it('-F with GET goes to the query string', async () => {
    await api(['/learnings', '-X', 'GET', '-F', 'limit=5', '-F', 'type=win']);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.query.get('limit')).toBe('5');
    expect(req.query.get('type')).toBe('win');
    expect(req.body).toBe('');
  });

  it('--website adds website_id to a GET', async () => {
    await runCli(['--website', '0b253a23-6fd1-4921-86e4-4954cb8dbbba', 'api', '/brand/brand-subjects'], { env: env() });
    expect(server.requests[0]!.query.get('website_id')).toBe('0b253a23-6fd1-4921-86e4-4954cb8dbbba');
  });

  it('--website adds website_id to the query of a write too, as every command sends it; the body stays as given', async () => {
    const website = '0b253a23-6fd1-4921-86e4-4954cb8dbbba';
    const r = await runCli(['--website', website, 'api', '/content/listeners', '-F', 'name=Feed'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.query.get('website_id')).toBe(website);
    expect(req.json).toEqual({ name: 'Feed' });
  });

  it('--website and a different website_id in the path or a -F field: a usage error, nothing sent; the same one is sent once', async () => {
    const website = '0b253a23-6fd1-4921-86e4-4954cb8dbbba';
    for (const args of [
      ['api', '/brand/brand-subjects?website_id=other'],
      ['api', '/brand/brand-subjects', '-X', 'GET', '-F', 'website_id=other'],
      ['api', '/content/listeners', '-F', 'website_id=other'],
    ]) {
      const r = await runCli(['--website', website, ...args], { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('disagree');
    }
    expect(server.requests).toHaveLength(0);
    const same = await runCli(['--website', website, 'api', `/brand/brand-subjects?website_id=${website}`], { env: env() });
    expect(same.exitCode, same.stderr).toBe(0);
    expect(server.requests[0]!.query.getAll('website_id')).toEqual([website]);
  });

  it('--input - reads the JSON body from stdin', async () => {
    const body = { name: 'Feed', query_config: { keywords: ['a', 'b'] }, n: 3 };
    const r = await api(['/content/listeners', '--input', '-'], { input: JSON.stringify(body) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests[0]!.method).toBe('POST');
    expect(server.requests[0]!.json).toEqual(body);
  });

  it('--input FILE reads the JSON body from a file; -X PUT is honoured', async () => {
    const dir = tempDir();
    const file = join(dir, 'b.json');
    writeFileSync(file, '{"x":[1]}');
    const r = await api(['/x', '--input', file, '-X', 'put']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests[0]!.method).toBe('PUT');
    expect(server.requests[0]!.json).toEqual({ x: [1] });
  });

  it('--include prints the whole body on stdout, the status line and headers on stderr', async () => {
    server.handle(ok({ id: 7 }, { meta: { total: 1 } }));
    const r = await api(['/x', '--include']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { id: 7 }, meta: { total: 1 } });
    expect(r.stderr).toMatch(/^HTTP\/1\.1 200 OK\n(.+: .+\n)*content-type: application\/json.*\n(.+: .+\n)*\n$/);
  });

  it('--include on an error status still prints the body, then exits with the mapped code', async () => {
    server.handle(fail(404, 'Nope', 'NOT_FOUND'));
    const r = await api(['/x', '-i']);
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout)).toEqual({ success: false, error: 'Nope', code: 'NOT_FOUND' });
    expect(r.stderr).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
  });

  it('--verbose logs request and response lines on stderr, key masked, stdout untouched', async () => {
    const r = await runCli(['--verbose', 'api', '/x'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hello: 'world' });
    expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/x/m);
    expect(r.stderr).toMatch(/^< 200 GET /m);
    expect(r.stderr).toContain('cr_1a2b…9f0e');
    expect(r.stderr).not.toContain(KEY);
  });

  it('--verbose with a failing request never prints the key either', async () => {
    server.handle(fail(401, `bad key ${KEY}`, 'INVALID_API_KEY'));
    const r = await runCli(['--verbose', 'api', '/x', '-F', `k=${KEY}`, '-X', 'GET'], { env: env() });
    expect(r.exitCode).toBe(3);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});

describe('cr api -X HEAD: an answer without a body by definition', () => {
  it('a 200 prints nothing and exits 0', async () => {
    const r = await api(['/finance/summary', '-X', 'HEAD']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['HEAD /api/v1/finance/summary']);
  });

  it('--website adds website_id to the query as for a GET, beside -F fields (--verbose shows it)', async () => {
    const website = '0b253a23-6fd1-4921-86e4-4954cb8dbbba';
    const r = await runCli(['--website', website, '--verbose', 'api', '/brand/brand-subjects', '-X', 'HEAD', '-F', 'limit=5'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const req = server.requests[0]!;
    expect(req.method).toBe('HEAD');
    expect(req.query.get('website_id')).toBe(website);
    expect(req.query.get('limit')).toBe('5');
    expect(r.stderr).toMatch(new RegExp(`^> HEAD http://127\\.0\\.0\\.1:\\d+/api/v1/brand/brand-subjects\\?.*website_id=${website}`, 'm'));
    // A different -F website_id beside --website: refused, as for a GET; nothing sent.
    const both = await runCli(['--website', website, 'api', '/x', '-X', 'HEAD', '-F', 'website_id=other'], { env: env() });
    expect(both.exitCode).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it('--json and --jq change nothing: still nothing printed, exit 0', async () => {
    for (const extra of [['--json'], ['--jq', '.']]) {
      const r = await api(['/x', '-X', 'head', ...extra]);
      expect(r.exitCode, `${extra}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe('');
    }
  });

  it('after a followed 301: the HEAD goes again to the Location, exit 0', async () => {
    server.handle((req) => (req.path === '/api/v1/old' ? { status: 301, headers: { location: '/api/v1/new' } } : ok({ moved: true })));
    const r = await api(['/old', '-X', 'HEAD']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['HEAD /api/v1/old', 'HEAD /api/v1/new']);
  });

  it('--include: the status line and headers on stderr, nothing on stdout, exit 0 (after a redirect too)', async () => {
    server.handle((req) => (req.path === '/api/v1/old' ? { status: 301, headers: { location: '/api/v1/new' } } : ok({ moved: true })));
    for (const path of ['/new', '/old']) {
      const r = await api([path, '-X', 'HEAD', '--include']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^HTTP\/1\.1 200 OK\n(.+: .+\n)*content-type: application\/json.*\n(.+: .+\n)*\n$/);
    }
  });

  it('an error status is mapped as for a GET (404 → 5, 401 → 3, 403 → 4), with --include too', async () => {
    for (const [status, exit] of [
      [404, 5],
      [401, 3],
      [403, 4],
      [422, 6],
    ] as const) {
      server.handle({ status });
      const r = await api(['/x', '-X', 'HEAD', '--json']);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(exit);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr)).toMatchObject({ status });
      const i = await api(['/x', '-X', 'HEAD', '-i']);
      expect(i.exitCode, `${status} -i: ${i.stderr}`).toBe(exit);
      expect(i.stdout).toBe('');
      expect(i.stderr).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    }
  });

  describe('an error answer without a body to take a code from: the code the API gives that status', () => {
    const statuses = [
      [400, 6, 'BAD_REQUEST'],
      [401, 3, 'INVALID_API_KEY'],
      [403, 4, 'FORBIDDEN'],
      [404, 5, 'NOT_FOUND'],
      [429, 7, 'RATE_LIMITED'],
      [500, 8, 'INTERNAL_ERROR'],
      [503, 8, 'SERVICE_UNAVAILABLE'],
      // A status the API never gives still has a code.
      [422, 6, 'HTTP_422'],
    ] as const;
    // A HEAD (no body by definition), and a GET whose error body is empty.
    for (const method of ['HEAD', 'GET'] as const) {
      it.each(statuses)(`${method} → %i: exit %i, (%s) in text and in --json`, async (status, exit, code) => {
        server.handle({ status });
        const text = await api(['/x', '-X', method]);
        expect(text.exitCode, text.stderr).toBe(exit);
        expect(text.stdout).toBe('');
        const line = text.stderr.trimEnd();
        expect(line.split('\n')).toHaveLength(1);
        expect(line).toMatch(new RegExp(`^error: HTTP ${status}.* \\(${method} http://127\\.0\\.0\\.1:${server.port}/api/v1/x\\).* \\(${code}\\)$`));
        const json = await api(['/x', '-X', method, '--json']);
        expect(json.exitCode).toBe(exit);
        expect(json.stdout).toBe('');
        expect(JSON.parse(json.stderr)).toMatchObject({ error: expect.stringMatching(new RegExp(`^HTTP ${status}`)), code, status });
        expect(server.requests.every((q) => q.method === method && q.body === '')).toBe(true);
      });
    }

    it("a code the server sends is kept, and a body's message too (positive control)", async () => {
      server.handle(fail(403, 'Website not in key scope', 'OUT_OF_SCOPE'));
      const r = await api(['/x', '--json']);
      expect(JSON.parse(r.stderr)).toMatchObject({ error: 'Website not in key scope', code: 'OUT_OF_SCOPE', status: 403 });
    });
  });

  it('a 3xx cr does not follow (a 304, a 301 without Location) is no success: BAD_RESPONSE with the status', async () => {
    for (const status of [304, 301]) {
      server.handle({ status });
      const r = await api(['/x', '-X', 'HEAD', '--json']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(JSON.parse(r.stderr)).toMatchObject({ code: 'BAD_RESPONSE', status });
      expect(JSON.parse(r.stderr).error).toContain(`HEAD http://127.0.0.1:${server.port}/api/v1/x: HTTP ${status}`);
    }
  });

  it('a GET with the same empty 200 is still no answer (positive control)', async () => {
    server.handle({ status: 200 });
    const r = await api(['/x']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('HTTP 200 with a non-JSON body');
  });
});
