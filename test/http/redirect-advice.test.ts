import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { type Answer, closeAll, envelope, startTarget, TARGET_HOST } from './support.js';

/**
 * What a redirect to another origin is blamed for (src/http/client.ts unwrap,
 * src/http/redirects.ts movedBase): a refusal from the origin the key was not sent to is not
 * the key's, and the base URL cr suggests keeps the API's path. Real servers on 127.0.0.1, two
 * ports being two origins.
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey('8a8a', '8b8b');

/** Sends every request to the same path on `port`'s origin. */
const movedTo =
  (status: number, port: () => number): Answer =>
  (req, res) => {
    res.writeHead(status, { location: `http://127.0.0.1:${port()}${req.url}` });
    res.end();
  };

/** The API's refusal of a request without a key. */
const refuses: Answer = (_req, res) => {
  res.writeHead(401, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ success: false, error: 'Missing API key', code: 'UNAUTHORIZED' }));
};

const env = (port: number) => ({ CR_API_KEY: KEY, CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` });

describe('a redirect to another origin', () => {
  it('answered there with 401: said to come from there, without the key; the key is not blamed; exit 1', async () => {
    const other = await startTarget(refuses);
    const srv = await startTarget(movedTo(301, () => other.port));
    const r = await runCli(['finance', 'summary'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(other.seen.map((s) => s.headers.authorization)).toEqual([undefined]);
    expect(r.stderr).toContain(`was redirected to another origin, http://127.0.0.1:${other.port}/api/v1/finance/summary, which is not sent the key`);
    expect(r.stderr).toContain(`point the base URL at http://127.0.0.1:${other.port}/api/v1`);
    expect(r.stderr).not.toMatch(/Invalid API key|valid key/);
  });

  it('--json: the status stays in the error object', async () => {
    const other = await startTarget(refuses);
    const srv = await startTarget(movedTo(302, () => other.port));
    const r = await runCli(['finance', 'summary', '--json'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ status: 401 });
  });

  it('cr auth login: the key is not said to be rejected, and nothing is stored', async () => {
    const other = await startTarget(refuses);
    const srv = await startTarget(movedTo(308, () => other.port));
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', `http://127.0.0.1:${srv.port}/api/v1`, '--profile', 'moved'], { input: `${KEY}\n` });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('rejected the key');
    expect(r.stderr).toContain('which is not sent the key');
    const profiles = await runCli(['profiles', 'list', '--json'], { configDir: r.configDir });
    expect(profiles.stdout).not.toContain('moved');
  });

  it('a write answered by 301: the base URL suggested keeps the API path', async () => {
    const other = await startTarget(refuses);
    const srv = await startTarget(movedTo(301, () => other.port));
    const r = await runCli(['api', '-X', 'POST', '/listeners', '-F', 'name=x'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`point the base URL at http://127.0.0.1:${other.port}/api/v1`);
    expect(r.stderr).not.toMatch(new RegExp(`point the base URL at http://127\\.0\\.0\\.1:${other.port}(?!/api/v1)`));
    expect(other.seen).toEqual([]);
  });
});

describe('the advice after a key-dropping redirect', () => {
  it('through another origin and back: the answer is not said to come from another origin, and no base URL is offered', async () => {
    let srvPort = 0;
    const other = await startTarget((req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${srvPort}/api/v1/back` });
      res.end();
    });
    const srv = await startTarget((req, res, live) => {
      if (req.url?.startsWith('/api/v1/back')) return refuses(req, res, live);
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/api/v1/elsewhere` });
      res.end();
    });
    srvPort = srv.port;
    const r = await runCli(['api', '/start'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`was redirected through another origin and back, to http://127.0.0.1:${srv.port}/api/v1/back, which is then not sent the key either`);
    expect(r.stderr).not.toContain('point the base URL');
  });

  it('a Location whose path is not under /api/v1: the advice names the origin, never a base URL cr would refuse', async () => {
    const other = await startTarget(refuses);
    const srv = await startTarget((_req, res) => {
      res.writeHead(301, { location: `http://127.0.0.1:${other.port}/v2/things` });
      res.end();
    });
    const r = await runCli(['api', '/things'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`point the base URL at the /api/v1 of http://127.0.0.1:${other.port}`);
    expect(r.stderr).not.toContain(`point the base URL at http://127.0.0.1:${other.port}/v2`);
  });
});

describe('a redirect to an origin whose proxy cr cannot use', () => {
  it('ALL_PROXY=socks5://… met on a hop: a proxy error after the first request was sent, not a usage error (exit 8, not 2)', async () => {
    // The first origin is loopback (never proxied); the hop's is not, and only a SOCKS proxy is set.
    const srv = await startTarget((req, res, live) => {
      if (req.url?.startsWith('/api/v1/moved')) return envelope(req, res, live);
      res.writeHead(302, { location: `http://${TARGET_HOST}:${live.port}/api/v1/moved` });
      res.end();
    });
    const r = await runCli(['api', '/old', '--json'], { env: { ...env(srv.port), ALL_PROXY: 'socks5://127.0.0.1:1080' } });
    expect(srv.seen.map((s) => s.url)).toEqual(['/api/v1/old']);
    expect(r.exitCode, r.stderr).toBe(8);
    const error = JSON.parse(r.stderr) as { code: string; error: string };
    expect(error.code).toBe('PROXY_ERROR');
    expect(error.error).toContain('ALL_PROXY');
    expect(error.error).toContain('after the request to');
  });
});
