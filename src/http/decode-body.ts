import { createRequire } from 'node:module';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { deflateEither, WholeDecoder } from './whole-decoder.js';

/**
 * Response bodies in the Content-Encodings cr asks for (`Accept-Encoding: gzip, br`, sent by
 * src/http/client.ts) and deflate, decoded as they stream in, so the body cap of
 * src/http/read-body.ts holds on the decoded bytes: a small body that inflates without end
 * (a decompression bomb) stops at the cap like a plain one. node:zlib loads only for a body
 * that needs it (start-up: CONTRIBUTING.md "How cr starts").
 */
export const ACCEPT_ENCODING = 'gzip, br';

/** The most codings cr undoes on one body, as curl (its MAX_ENCODE_STACK): thousands of stacked decoders are an attack, not an answer. */
export const MAX_CODINGS = 5;

/** A body that cannot be decoded: an encoding cr does not know, or bytes that are not what it says. */
export class DecodeError extends Error {
  constructor(
    readonly encoding: string,
    why: string,
  ) {
    super(`the response body cannot be decoded (Content-Encoding: ${encoding}): ${why}`);
  }
}

/** The codings applied to a body, in the order they were applied (`identity` is none). */
export function codings(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
}

/** Printable ASCII only: the header comes from the network and ends up in an error message. */
const shown = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);

function decoder(coding: string, all: string): Transform {
  const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  // Strict: each decoder finishes its stream (zlib's defaults, Z_FINISH and BROTLI_OPERATION_FINISH),
  // so a body whose compressed data stops early (a gzip without its CRC and length, a deflate or
  // br stream cut mid-block) fails, even when its HTTP framing (Content-Length, chunked) was whole.
  // Held to the end of the compressed data (src/http/whole-decoder.ts): bytes after it fail the body.
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip();
  if (coding === 'br') return new WholeDecoder(() => zlib.createBrotliDecompress());
  // With or without its zlib header.
  if (coding === 'deflate') return deflateEither(zlib);
  throw new DecodeError(shown(all), `cr decodes gzip, br and deflate, not ${shown(coding)}`);
}

/**
 * The body decoded, the last coding applied undone first, and how to tell a decoder's failure
 * (the bytes are not what the header says: a DecodeError naming it) from the connection's
 * (kept as it is).
 */
export function decodedBody(body: Readable, list: string[]): { stream: Readable; failure: (err: unknown) => unknown } {
  const all = list.join(', ');
  if (list.length > MAX_CODINGS) throw new DecodeError(shown(all), `${list.length} codings stacked; cr undoes at most ${MAX_CODINGS}`);
  const steps = [...list].reverse().map((c) => decoder(c, all));
  const fromSource = new WeakSet<object>();
  body.on('error', (err) => fromSource.add(err));
  let out: Readable = body;
  for (const step of steps) {
    pipeline(out, step, () => undefined);
    out = step;
  }
  return {
    stream: out,
    failure: (err) => (err instanceof Error && !fromSource.has(err) ? new DecodeError(shown(all), why(err)) : err),
  };
}

/** A decoder's failure in words: zlib's "unexpected end of file" is a body cut short. */
function why(err: Error & { code?: string }): string {
  if (err.code === 'Z_BUF_ERROR') return 'the body ends before its compressed data does (cut short)';
  return err.message;
}
