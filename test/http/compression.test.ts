import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
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

/** A server answering `body` with the given Content-Encoding. */
const serving = (encoding: string, body: Buffer) =>
  startTarget((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': String(body.length) });
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
