import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, envelope, startTarget } from './support.js';

/**
 * What a redirect chain may carry and show (src/http/redirects.ts, src/http/shown.ts), against
 * real servers on 127.0.0.1 (two ports are two origins).
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey('7c7c', '7d7d');
const env = (baseUrl: string) => ({ CR_API_KEY: KEY, CR_BASE_URL: baseUrl });

describe('what a hop to another origin carries', () => {
  it('once the key is dropped it stays dropped: a hop back to the first origin gets no key', async () => {
    let firstPort = 0;
    const other = await startTarget((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${firstPort}/api/v1/back` });
      res.end();
    });
    const srv = await startTarget((req, res, live) => {
      if (req.url?.startsWith('/api/v1/back')) return envelope(req, res, live);
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/api/v1/away` });
      res.end();
    });
    firstPort = srv.port;
    const r = await runCli(['api', '/old', '-H', 'Cookie: session=abc'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(srv.seen.map((s) => `${s.url} ${s.headers.authorization ?? '-'} ${s.headers.cookie ?? '-'}`)).toEqual([`/api/v1/old Bearer ${KEY} session=abc`, '/api/v1/back - -']);
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('-H headers (a cookie, another key) go to the first origin only; Content-Type stays with the body', async () => {
    const other = await startTarget();
    const srv = await startTarget((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${other.port}/api/v1/elsewhere` });
      res.end();
    });
    const r = await runCli(['api', '-X', 'POST', '/old', '-H', 'Cookie: session=abc', '-H', 'X-Api-Key: k123', '-F', 'name=a'], {
      env: env(`http://127.0.0.1:${srv.port}/api/v1`),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(srv.seen[0]!.headers).toMatchObject({ cookie: 'session=abc', 'x-api-key': 'k123' });
    const hop = other.seen[0]!.headers;
    expect([hop.cookie, hop['x-api-key'], hop.authorization]).toEqual([undefined, undefined, undefined]);
    expect(hop['content-type']).toBe('application/json');
  });
});

describe('how a Location is shown', () => {
  it('a write redirected to a non-http Location names it (escaped), not "null"', async () => {
    const srv = await startTarget((_req, res) => {
      res.writeHead(301, { location: 'cr-files://files.example.test/drop\u009b' });
      res.end();
    });
    const r = await runCli(['api', '-X', 'POST', '/things', '-F', 'name=a', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stderr).error as string;
    expect(err).toContain('cr-files://files.example.test/drop');
    expect(err).not.toContain('null');
    expect(err).not.toContain('\u009b');
  });

  it('a 15 KB Location is cut, with its length', async () => {
    const long = `http://files.example.test/${'a'.repeat(15_000)}`;
    const srv = await startTarget((_req, res) => {
      res.writeHead(302, { location: long });
      res.end();
    });
    const r = await runCli(['api', '-X', 'POST', '/things', '-F', 'name=a', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stderr).error as string;
    expect(err.length).toBeLessThan(1000);
    expect(err).toContain(`(${long.length} chars)`);
  });

  it('a password in a Location is masked in --verbose and in errors', async () => {
    const srv = await startTarget((req, res, live) => {
      if (req.url?.startsWith('/api/v1/moved')) return envelope(req, res, live);
      if (req.method === 'POST') res.writeHead(301, { location: 'http://bob:hunter2secret@files.example.test/x' });
      else res.writeHead(302, { location: `http://bob:hunter2secret@127.0.0.1:${live.port}/api/v1/moved` });
      res.end();
    });
    const read = await runCli(['api', '/old', '--verbose'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(read.exitCode, read.stderr).toBe(0);
    expect(read.stderr).toContain(`redirected by 302 to http://bob:***@127.0.0.1:${srv.port}/api/v1/moved`);
    const write = await runCli(['api', '-X', 'POST', '/things', '-F', 'name=a', '--json'], { env: env(`http://127.0.0.1:${srv.port}/api/v1`) });
    expect(write.exitCode).toBe(1);
    expect(write.stderr).toContain('bob:***@files.example.test');
    expect(`${read.stderr}${write.stderr}`).not.toContain('hunter2secret');
  });
});
