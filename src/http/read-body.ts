import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { codings, decodedBody } from './decode-body.js';

/**
 * The largest response body the CLI reads: 64 MiB. Every API answer is far smaller; a
 * bigger one (a proxy's error page streaming forever, a wrong URL serving a file) would
 * otherwise grow the process without bound, three times over with retries.
 * CR_MAX_RESPONSE_BYTES lowers it (tests) or raises it.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The cap from CR_MAX_RESPONSE_BYTES when it is a positive integer, else the default. */
export function maxResponseBytes(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CR_MAX_RESPONSE_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_MAX_RESPONSE_BYTES;
}

/** Thrown when a body passes the cap; the connection is dropped at once. */
export class TooLargeError extends Error {
  constructor(
    readonly cap: number,
    /** The cap was passed by the decoded body (a compressed one that inflates past it). */
    readonly decoded = false,
  ) {
    super(`response larger than ${describeBytes(cap)}`);
  }
}

export function describeBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * Reads the body as UTF-8 text, decoded from its Content-Encoding (src/http/decode-body.ts),
 * stopping (and destroying the stream) past `cap` bytes of the decoded body.
 */
export async function readCapped(res: Dispatcher.ResponseData, cap: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.destroy();
    throw new TooLargeError(cap);
  }
  const list = codings(res.headers['content-encoding']);
  let source: Readable = res.body;
  let failure = (err: unknown) => err;
  let received = 0;
  if (list.length > 0) {
    // An empty body (a HEAD, a 204) has nothing to decode: zlib would call it cut short.
    res.body.on('data', (c: Buffer) => (received += c.length));
    try {
      ({ stream: source, failure } = decodedBody(res.body, list));
    } catch (err) {
      res.body.destroy();
      throw err;
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      size += buf.length;
      // Leaving the loop destroys the stream: the connection closes, the server sees it go.
      if (size > cap) throw new TooLargeError(cap, list.length > 0);
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof TooLargeError) throw err;
    if (list.length > 0 && received === 0 && (err as { code?: string }).code === 'Z_BUF_ERROR') return '';
    throw failure(err);
  }
  return Buffer.concat(chunks).toString('utf8');
}
