import type { Dispatcher } from 'undici';
import { DispatcherBase } from '../http/undici-core.js';
import { plainHeaders, refusedHeader } from '../http/request-headers.js';
import type { InProcessServer, PlainRequest } from '../server/transport/in-process.js';

function bodyText(body: Dispatcher.DispatchOptions['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  // The HTTP core sends JSON text only (src/http/client.ts); a stream would be a new caller.
  throw new TypeError('the in-process server takes a string or bytes as the request body');
}

/**
 * An undici dispatcher that hands each request to the local server in this process instead
 * of a socket (src/server/transport/in-process.ts). The HTTP core (src/http/client.ts) stays the same
 * for --local as for a remote call: its request(), timeouts and abort signal, retries,
 * body cap and response checks all run; only the bytes do not cross a loopback connection.
 */
export class InProcessDispatcher extends DispatcherBase {
  constructor(private readonly server: InProcessServer) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const legacy = handler as Dispatcher.DispatchHandler & {
      onConnect?: (abort: (err?: Error) => void, context: unknown) => void;
      onHeaders?: (status: number, raw: Buffer[], resume: () => void, statusText: string) => boolean;
      onData?: (chunk: Buffer) => boolean;
      onComplete?: (trailers: Buffer[]) => void;
      onError?: (err: Error) => void;
    };
    let ended = false;
    const fail = (err: Error) => {
      if (ended) return;
      ended = true;
      legacy.onError?.(err);
    };
    // The abort signal (a timeout, Ctrl-C) ends the request at once; the answer, if it comes, is dropped.
    legacy.onConnect?.((err) => fail(err ?? new Error('aborted')), null);
    let req: PlainRequest;
    try {
      req = { method: opts.method, path: opts.path, headers: plainHeaders(opts.headers), body: bodyText(opts.body) };
      const refused = refusedHeader(req.headers, Buffer.byteLength(req.body ?? ''));
      if (refused) throw refused;
    } catch (err) {
      queueMicrotask(() => fail(err as Error));
      return true;
    }
    this.server(req).then((answer) => {
      if (ended) return;
      ended = true;
      const bytes =
        typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
      const raw: Buffer[] = [];
      for (const [name, value] of Object.entries({ ...answer.headers, 'content-length': String(bytes.length) }))
        raw.push(Buffer.from(name), Buffer.from(value));
      legacy.onHeaders?.(answer.status, raw, () => undefined, '');
      // An answer to HEAD carries its headers only, as over HTTP (the declared length stays).
      if (opts.method !== 'HEAD') legacy.onData?.(bytes);
      legacy.onComplete?.([]);
    }, fail);
    return true;
  }

  override async close(): Promise<void> {}

  override async destroy(): Promise<void> {}
}
