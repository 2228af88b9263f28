import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, startTarget } from './support.js';

/**
 * Compressed answers (src/http/decode-body.ts): cr asks for gzip and br, decodes them, holds
 * the decoded body to the same cap as a plain one, and names the Content-Encoding of a body
 * it cannot decode. Real servers on 127.0.0.1 that compress what they send.
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const env = (port: number, extra: Record<string, string> = {}) => ({ CR_API_KEY: makeKey(), CR_BASE_URL: `http://127.0.0.1:${port}/api/v1`, ...extra });
const json = Buffer.from(JSON.stringify({ success: true, data: { word: 'compressed é', list: Array.from({ length: 200 }, (_, i) => i) } }));

/** A server answering `body` with the given Content-Encoding (with its length, or chunked: `chunked` true). */
const serving = (encoding: string, body: Buffer, chunked = false) =>
  startTarget((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, ...(chunked ? {} : { 'content-length': String(body.length) }) });
    res.end(body);
  });

describe('decoding', () => {
  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ] as const) {
    it(`${encoding}: asked for with Accept-Encoding, decoded`, async () => {
      const srv = await serving(encoding, encode(json));
      const r = await runCli(['api', '/x'], { env: env(srv.port) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ word: 'compressed é' });
      expect(srv.seen[0]!.headers['accept-encoding']).toBe('gzip, br');
    });
  }

  it('an uncompressed answer is read as before (positive control)', async () => {
    const srv = await startTarget();
    const r = await runCli(['api', '/x'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ answered: true });
  });
});

describe('the cap and broken bodies', () => {
  it('a decompression bomb stops at the cap: RESPONSE_TOO_LARGE, exit 8, said to be the decoded size', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const srv = await serving('gzip', bomb);
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port, { CR_MAX_RESPONSE_BYTES: String(1024 * 1024) }) });
    expect(r.exitCode).toBe(8);
    const err = JSON.parse(r.stderr);
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
    expect(err.error).toContain('more than the 1 MiB cap once decoded');
    // Not retried: another attempt fetches the same flood.
    expect(srv.seen).toHaveLength(1);
  });

  it('the same body under the cap is read whole (positive control)', async () => {
    const srv = await serving('gzip', gzipSync(Buffer.from(JSON.stringify({ success: true, data: { pad: ' '.repeat(500_000) } }))));
    const r = await runCli(['api', '/x'], { env: env(srv.port, { CR_MAX_RESPONSE_BYTES: String(1024 * 1024) }) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).pad).toHaveLength(500_000);
  });

  it('a body that is not what its Content-Encoding says: an error naming it, with the status', async () => {
    const srv = await serving('gzip', json);
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stderr);
    expect(err).toMatchObject({ code: 'BAD_RESPONSE', status: 200 });
    expect(err.error).toContain('cannot be decoded (Content-Encoding: gzip)');
  });

  it('an encoding cr does not know: named', async () => {
    const srv = await serving('zstd', json);
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr).error).toContain('(Content-Encoding: zstd): cr decodes gzip, br and deflate, not zstd');
  });
});

/**
 * A compressed body cut short whose HTTP framing is whole (its Content-Length is the cut length,
 * or the chunked body ends properly): only the decoder can tell it is not all there.
 */
describe('a compressed body cut short', () => {
  const cuts = (body: Buffer) => ({ 'first byte only': 1, 'ten bytes': 10, half: Math.floor(body.length / 2), 'last byte missing': body.length - 1 });
  const cases: [label: string, encoding: string, body: Buffer][] = [
    ['gzip', 'gzip', gzipSync(json)],
    ['br', 'br', brotliCompressSync(json)],
    ['deflate (zlib)', 'deflate', deflateSync(json)],
    ['deflate (raw)', 'deflate', deflateRawSync(json)],
  ];
  for (const [label, encoding, whole] of cases) {
    for (const [where, at] of Object.entries(cuts(whole))) {
      it(`${label}, ${where}: BAD_RESPONSE naming the Content-Encoding, exit 1, nothing printed`, async () => {
        const srv = await serving(encoding, whole.subarray(0, at));
        const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        const err = JSON.parse(r.stderr);
        expect(err).toMatchObject({ code: 'BAD_RESPONSE', status: 200 });
        expect(err.error).toContain(`cannot be decoded (Content-Encoding: ${encoding}): the body ends before its compressed data does`);
      });
    }
  }

  it('gzip without its trailer (CRC and length): an error, though every byte of the JSON is there', async () => {
    const whole = gzipSync(json);
    for (const chunked of [false, true]) {
      const srv = await serving('gzip', whole.subarray(0, whole.length - 8), chunked);
      const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr).error).toContain('(Content-Encoding: gzip): the body ends before its compressed data does');
    }
  });

  it('zlib deflate without its Adler-32 check: an error', async () => {
    const whole = deflateSync(json);
    const srv = await serving('deflate', whole.subarray(0, whole.length - 4), true);
    const r = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stderr).error).toContain('(Content-Encoding: deflate)');
  });

  it('stacked codings: the inner coding cut short is named with the list; whole, they decode (positive control)', async () => {
    const inner = gzipSync(json);
    const cut = brotliCompressSync(inner.subarray(0, inner.length - 8));
    const broken = await serving('gzip, br', cut);
    const r = await runCli(['api', '/x', '--json'], { env: env(broken.port) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stderr).error).toContain('(Content-Encoding: gzip, br): the body ends before its compressed data does');
    const whole = await serving('gzip, br', brotliCompressSync(inner));
    const ok = await runCli(['api', '/x'], { env: env(whole.port) });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ word: 'compressed é' });
  });

  it('whole bodies, chunked, still decode (positive control)', async () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(json)],
      ['br', brotliCompressSync(json)],
      ['deflate', deflateSync(json)],
      ['deflate', deflateRawSync(json)],
    ] as const) {
      const srv = await serving(encoding, body, true);
      const r = await runCli(['api', '/x'], { env: env(srv.port) });
      expect(r.exitCode, `${encoding}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ word: 'compressed é' });
    }
  });

  it('an empty body with a Content-Encoding is no decoding error (a 200 with Content-Length: 0, a HEAD)', async () => {
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const srv = await serving(encoding, Buffer.alloc(0));
      const get = await runCli(['api', '/x', '--json'], { env: env(srv.port) });
      expect(get.stderr, encoding).not.toContain('cannot be decoded');
      const head = await runCli(['api', '-X', 'HEAD', '/x'], { env: env(srv.port) });
      expect(head.stderr, encoding).not.toContain('cannot be decoded');
    }
  });
});
