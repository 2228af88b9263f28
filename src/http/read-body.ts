import type { Dispatcher } from 'undici';

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
  constructor(readonly cap: number) {
    super(`response larger than ${describeBytes(cap)}`);
  }
}

export function describeBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** Reads the body as UTF-8 text, stopping (and destroying the stream) past `cap` bytes. */
export async function readCapped(res: Dispatcher.ResponseData, cap: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.destroy();
    throw new TooLargeError(cap);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    size += buf.length;
    // Leaving the loop destroys the stream: undici closes the socket, the server sees it go.
    if (size > cap) throw new TooLargeError(cap);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
