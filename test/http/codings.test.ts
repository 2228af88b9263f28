import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, startTarget } from './support.js';

/**
 * The Content-Encodings a body may stack, deflate's two forms, and an encoding on no body
 * (src/http/decode-body.ts, src/http/deflate-either.ts, src/http/read-body.ts), against real
 * servers on 127.0.0.1.
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const env = (port: number) => ({ CR_API_KEY: makeKey(), CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` });
const json = Buffer.from(JSON.stringify({ success: true, data: { word: 'decoded' } }));

const serving = (status: number, encoding: string, body: Buffer) =>
  startTarget((_req, res) => {
    const typed = status === 204 ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) };
    res.writeHead(status, { 'content-encoding': encoding, ...typed });
    res.end(status === 204 ? undefined : body);
  });

const stacked = (n: number) => Array.from({ length: n }).reduce<Buffer>((b) => gzipSync(b), json);

describe('codings', () => {
  it('raw deflate (no zlib header) under Content-Encoding: deflate is decoded', async () => {
    const srv = await serving(200, 'deflate', deflateRawSync(json));
    const r = await runCli(['api', '/x'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ word: 'decoded' });
  });

  it('more than 5 stacked codings: refused with a clear error, BAD_RESPONSE', async () => {
    const srv = await serving(200, Array(6).fill('gzip').join(', '), stacked(6));
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('BAD_RESPONSE');
    expect(err.error).toContain('6 codings stacked; cr undoes at most 5');
  });

  it('5 stacked codings are decoded (positive control)', async () => {
    const srv = await serving(200, Array(5).fill('gzip').join(', '), stacked(5));
    const r = await runCli(['api', '/x'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ word: 'decoded' });
  });

  it('an unknown Content-Encoding on an answer with no body (a HEAD): nothing to decode, no decoding error', async () => {
    const srv = await serving(204, 'zstd', Buffer.alloc(0));
    const r = await runCli(['api', '-X', 'HEAD', '/x/1', '--json'], { env: env(srv.port) });
    expect(r.stderr).not.toContain('cannot be decoded');
    expect(srv.seen.map((s) => s.method)).toEqual(['HEAD']);
  });
});
