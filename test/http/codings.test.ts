import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, startTarget } from './support.js';

/**
 * The Content-Encodings a body may stack, deflate's two forms, and an encoding on no body
 * (src/http/decode-body.ts, src/http/whole-decoder.ts, src/http/read-body.ts), against real
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

describe('bytes after the end of the compressed data', () => {
  /** The compressed body, then `extra`, in one write or (split) a moment later; Content-Length counts both. */
  const trailing = (encoding: string, compressed: Buffer, extra: Buffer, split: boolean) =>
    startTarget((_req, res) => {
      res.writeHead(200, { 'content-encoding': encoding, 'content-type': 'application/json', 'content-length': String(compressed.length + extra.length) });
      if (!split) return void res.end(Buffer.concat([compressed, extra]));
      res.write(compressed);
      setTimeout(() => res.end(extra), 50);
    });

  it.each([
    ['deflate (zlib), one write', 'deflate', deflateSync(json), false],
    ['deflate (zlib), the extra byte later', 'deflate', deflateSync(json), true],
    ['deflate (raw), one write', 'deflate', deflateRawSync(json), false],
    ['br, one write', 'br', brotliCompressSync(json), false],
    ['br, the extra byte later', 'br', brotliCompressSync(json), true],
  ] as const)('%s: refused naming the Content-Encoding, exit 1, nothing printed (never a silent exit 0)', async (_label, encoding, compressed, split) => {
    const srv = await trailing(encoding, compressed, Buffer.from('\n'), split);
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr) as { code: string; error: string };
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.error).toContain(`(Content-Encoding: ${encoding}): 1 byte(s) after the end of its compressed data`);
  });

  it('control: the same bodies without the extra byte are decoded', async () => {
    for (const [encoding, compressed] of [
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const srv = await trailing(encoding, compressed, Buffer.alloc(0), true);
      const r = await runCli(['api', '/x'], { env: env(srv.port) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ word: 'decoded' });
    }
  });
});
