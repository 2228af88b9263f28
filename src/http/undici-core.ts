import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Dispatcher as DispatcherClass } from 'undici';
import { requestAborted } from './dispatch-errors.js';

/**
 * The base of cr's own dispatchers (src/http/node-dispatcher.ts over the network,
 * src/local/in-process-dispatcher.ts for --local): a subclass writes dispatch() in undici's
 * handler protocol, and this base drives it for `request()`, the one method of undici's
 * Dispatcher API the HTTP core calls (src/http/client.ts), with undici's answer shape
 * (`statusCode`, lower-cased `headers`, a `body` stream). A MockAgent (tests) is undici's
 * own dispatcher and brings its own request().
 *
 * Why not undici's own Dispatcher class: `import 'undici'` loads fetch, WebSocket, caching,
 * mocks and cookies too, ~40 ms of start-up a CLI making one request never uses, and its
 * request() alone lives only in undici's private lib/ paths, which a patch release may move
 * (CONTRIBUTING.md, rule 5). Only undici's types are used here.
 */
interface Handler {
  onConnect: (abort: (err?: Error) => void, context: unknown) => void;
  onHeaders: (status: number, raw: Buffer[], resume: () => void, statusText: string) => boolean;
  onData: (chunk: Buffer) => boolean;
  onComplete: (trailers: Buffer[]) => void;
  onError: (err: Error) => void;
}

/** undici's raw header list as its request() returns it: lower-cased names, a repeated one as a list. */
function headerRecord(raw: Buffer[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/**
 * A response body as undici's request() gives it: a stream, plus the consumers callers of the
 * in-process carrier reach for (test/server/in-process-fixture.ts reads `text()`).
 */
class ResponseBody extends Readable {
  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    return Buffer.concat(chunks).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async dump(): Promise<void> {
    for await (const _ of this);
  }
}

class OwnDispatcher extends EventEmitter {
  dispatch(_opts: DispatcherClass.DispatchOptions, _handler: DispatcherClass.DispatchHandler): boolean {
    throw new Error('not implemented');
  }

  async close(): Promise<void> {}

  async destroy(): Promise<void> {}

  /** undici's `request()`: resolves with the status and headers once they come; the body streams after. */
  request(opts: DispatcherClass.RequestOptions): Promise<DispatcherClass.ResponseData> {
    return new Promise((resolve, reject) => {
      const signal = opts.signal as AbortSignal | undefined;
      let abort: ((err?: Error) => void) | undefined;
      let body: ResponseBody | undefined;
      let settled = false;
      const onAbort = () => abort?.((signal?.reason as Error | undefined) ?? requestAborted());
      const finish = () => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
      };
      const handler: Handler = {
        onConnect: (a) => {
          abort = a;
          if (signal?.aborted) onAbort();
        },
        onHeaders: (status, raw, resume) => {
          // The consumer's reads pull the body: a paused reader holds the server back
          // (backpressure), and a reader that stops (the body cap, src/http/read-body.ts)
          // drops the connection.
          body = new ResponseBody({
            read: () => resume(),
            destroy: (err, cb) => {
              if (!settled) abort?.(err ?? requestAborted());
              cb(err);
            },
          });
          resolve({ statusCode: status, headers: headerRecord(raw), trailers: {}, body, opaque: null, context: {} } as unknown as DispatcherClass.ResponseData);
          return true;
        },
        onData: (chunk) => body!.push(chunk),
        onComplete: () => {
          finish();
          body?.push(null);
        },
        onError: (err) => {
          finish();
          if (body) body.destroy(err);
          else reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        this.dispatch(opts as DispatcherClass.DispatchOptions, handler as unknown as DispatcherClass.DispatchHandler);
      } catch (err) {
        handler.onError(err as Error);
      }
    });
  }
}

/**
 * Typed as undici's Dispatcher, so that one of cr's dispatchers and a MockAgent fill the same
 * slots (src/cli/context.ts, src/http/client.ts); only request(), dispatch(), close() and
 * destroy() exist at run time, which is all the HTTP core calls.
 */
export const DispatcherBase = OwnDispatcher as unknown as typeof DispatcherClass;
