import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { type Answer, closeAll, envelope, makePki, type Pki, startTarget } from './support.js';

/**
 * Redirects as gh follows them (src/http/redirects.ts), through the HTTP core every command
 * uses, against real servers on 127.0.0.1 (two ports are two origins).
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey('7a7a', '7b7b');

/** Answers every request with `status` and a Location (to `to`, or to this server's own /api/v1/moved). */
const redirect =
  (status: number, to?: string): Answer =>
  (req, res, live) => {
    if (req.url?.startsWith('/api/v1/moved')) return envelope(req, res, live);
    res.writeHead(status, { location: to ?? `http://127.0.0.1:${live.port}/api/v1/moved` });
    res.end();
  };

const env = (baseUrl: string) => ({ CR_API_KEY: KEY, CR_BASE_URL: baseUrl });

describe('reads follow 301, 302, 303, 307, 308', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} on the same origin: followed with the key; --verbose shows the hop`, async () => {
      const srv = await startTarget(redirect(status));
      const r = await runCli(['api', '/old', '--verbose'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ answered: true });
      expect(srv.seen.map((s) => `${s.method} ${s.url} ${s.headers.authorization === `Bearer ${KEY}`}`)).toEqual(['GET /api/v1/old true', 'GET /api/v1/moved true']);
      expect(r.stderr).toContain(`redirected by ${status} to http://127.0.0.1:${srv.port}/api/v1/moved`);
    });
  }

  it('to another origin: followed without the key (Authorization dropped), and said so in --verbose', async () => {
    const other = await startTarget();
    const srv = await startTarget(redirect(302, `http://127.0.0.1:${other.port}/api/v1/elsewhere`));
    const r = await runCli(['api', '/old', '--verbose'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(srv.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
    expect(r.stderr).toContain('(no Authorization: another origin)');
    expect(r.stderr).not.toContain(KEY);
  });

  it('at most 5 hops: a loop is an error naming the last Location, with its status in --json', async () => {
    const srv = await startTarget((req, res, live) => {
      res.writeHead(302, { location: `http://127.0.0.1:${live.port}${req.url}x` });
      res.end();
    });
    const r = await runCli(['api', '/loop', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(1);
    expect(srv.seen).toHaveLength(6);
    const err = JSON.parse(r.stderr);
    expect(err).toMatchObject({ code: 'BAD_RESPONSE', status: 302 });
    expect(err.error).toContain('more than 5 redirects');
    expect(err.error).toContain('/api/v1/loopxxxxxx');
  });
});

describe('writes follow only 307 and 308', () => {
  for (const status of [307, 308]) {
    it(`${status}: the POST is sent again, method and body kept`, async () => {
      const srv = await startTarget((req, res, live) => {
        if (req.url?.startsWith('/api/v1/moved')) return envelope(req, res, live);
        res.writeHead(status, { location: '/api/v1/moved' });
        res.end();
      });
      const r = await runCli(['api', '-X', 'POST', '/things', '-F', 'name=a'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(srv.seen.map((s) => `${s.method} ${s.url} ${s.headers['content-length']}`)).toEqual(['POST /api/v1/things 12', 'POST /api/v1/moved 12']);
    });
  }

  for (const status of [301, 302, 303]) {
    it(`${status} answering a POST: not followed, an error naming the Location, status in --json`, async () => {
      const srv = await startTarget(redirect(status, 'https://api.example.test/api/v1/things'));
      const r = await runCli(['api', '-X', 'POST', '/things', '-F', 'name=a', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
      expect(r.exitCode).toBe(1);
      expect(srv.seen).toHaveLength(1);
      const err = JSON.parse(r.stderr);
      expect(err).toMatchObject({ code: 'BAD_RESPONSE', status });
      expect(err.error).toContain('https://api.example.test/api/v1/things');
    });
  }
});

describe('never from https to http', () => {
  it('an https server redirecting to http: refused, the http server never asked (a real process: the test CA is trusted at start)', async () => {
    const plain = await startTarget();
    const srv = await startTarget(redirect(301, `http://127.0.0.1:${plain.port}/api/v1/moved`), pki);
    const r = await runBin(['api', '/old', '--json'], { env: { ...env(`https://127.0.0.1:${srv.port}/api/v1`), NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(r.exitCode).toBe(1);
    expect(srv.seen).toHaveLength(1);
    expect(plain.seen).toEqual([]);
    const err = JSON.parse(r.stderr);
    expect(err).toMatchObject({ code: 'BAD_RESPONSE', status: 301 });
    expect(err.error).toContain('from https to plain http');
  });
});

describe('a 3xx that is no redirect to follow', () => {
  it('a 308 without a Location: the answer stands, its status in --json', async () => {
    const srv = await startTarget((_req, res) => {
      res.writeHead(308, { 'content-type': 'text/html' });
      res.end('<html>moved</html>');
    });
    const r = await runCli(['finance', 'summary', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'BAD_RESPONSE', status: 308 });
  });
});
