import type { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Dispatcher } from 'undici';
import { NodeHttpDispatcher } from '../http/node-dispatcher.js';
import { proxyRoutes } from '../http/proxy-env.js';

/**
 * The fetch the bridge hands the SDK's transport (src/mcp-bridge/upstream.ts): cr's own
 * connection pool (src/http/node-dispatcher.ts) rather than global fetch, so `<base>/mcp` is
 * reached the way every other request to the API is: through the proxy HTTPS_PROXY,
 * HTTP_PROXY or ALL_PROXY names unless NO_PROXY or loopback says otherwise
 * (src/http/proxy-env.ts; docs/install.md "Proxies"), with a proxy's failures named as the
 * proxy's (src/http/proxy-errors.ts), and never Node 24's NODE_USE_ENV_PROXY rules. The body
 * streams as it comes (the server's SSE answers), with no body time-out: a quiet stream is
 * not a dead one.
 */
export function upstreamFetch(env: NodeJS.ProcessEnv): { fetch: FetchLike; close: () => Promise<void> } {
  const routes = proxyRoutes(env);
  // The proxy pools load with the first request one carries (src/http/node-dispatcher.ts).
  const loadAgent = async () => (await import('../http/proxy-agents.js')).proxyAgent;
  const pool = new NodeHttpDispatcher({ keepAliveTimeout: 10_000, proxy: routes && { routes, loadAgent } });
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input instanceof URL ? input.href : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const res = await pool.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body: requestBody(init?.body),
      signal: init?.signal ?? undefined,
      bodyTimeout: 0,
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) for (const v of Array.isArray(value) ? value : [value ?? '']) out.append(name, v);
    const empty = [101, 204, 205, 304].includes(res.statusCode) || init?.method === 'HEAD';
    if (empty) res.body.destroy();
    return new Response(empty ? null : webStream(res.body), { status: res.statusCode, headers: out });
  };
  return { fetch, close: () => pool.close() };
}

/**
 * The body as a web stream, read as the SDK reads it (pulled; cancelled when it stops). Not
 * Readable.toWeb: on Node 20 it enqueues after the stream is closed once the SDK cancels.
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) body.pause();
      });
      body.once('end', () => {
        if (!done) controller.close();
        done = true;
      });
      body.once('error', (err) => {
        if (!done) controller.error(err);
        done = true;
      });
    },
    pull() {
      body.resume();
    },
    cancel(reason) {
      done = true;
      body.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}

/** The SDK sends JSON text; bytes are taken as they are. */
function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('the MCP bridge sends text or bytes only');
}
