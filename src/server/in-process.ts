import { BodyTooLarge, MAX_BODY_BYTES } from './body.js';
import type { ServerCore } from './core-types.js';
import { allowedHostSet } from './host-check.js';
import { createPipeline } from './pipeline.js';
import { probeRoutes } from './probe-routes.js';
import { ReadinessGate } from './readiness-gate.js';
import type { PlainAnswer } from './table-route.js';

/** A request as the CLI's HTTP core hands it over: method, path with query, headers, body text. */
export interface PlainRequest {
  method: string;
  /** The path under the origin, with its query string. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

/** Answers a request the way the HTTP listener would, without a socket. */
export type InProcessServer = (req: PlainRequest) => Promise<PlainAnswer>;

/** The Hono app's routes as the fallback uses them (createApp with `routesOnly`): a Fetch handler. */
type FetchApp = { fetch: (req: Request) => Response | Promise<Response> };

/** The origin --local's requests name (nothing listens there: they never leave the process). */
export const IN_PROCESS_ORIGIN = 'http://localhost';
const IN_PROCESS_HOST = 'localhost';

/**
 * The local server without a listener, for `--local` (docs/cli-contract.md "Local mode"): a
 * carrier of the request pipeline (pipeline.ts), which decides everything as over HTTP:
 * Host/Origin, the endpoint table's checks, Date, errors. A path outside the table (OpenAPI,
 * MCP, an unknown one) is answered by the Hono app's routes, built on first use, inside the
 * same pipeline.
 *
 * Why not always the Hono app: it speaks web `Request`/`Response`, and the first use of those
 * globals loads Node's own bundled undici, ~35 ms of a ~250 ms run (measured with
 * `node -e Response` against `node -e 0`); the listener and a loopback round trip cost
 * another ~20 ms. A request names no Host of its own unless given one (`cr api -H`), and
 * then it is judged like one over HTTP.
 */
export function inProcessServer(core: ServerCore, routes: () => Promise<FetchApp>, onInternalError: (err: unknown) => void): InProcessServer {
  // /healthz and /readyz as over HTTP (probe-routes.ts); /metrics is `cr serve`'s alone.
  const readiness = new ReadinessGate();
  readiness.attach(core.store);
  const pipeline = createPipeline({ core, allowed: allowedHostSet(), onInternalError, probes: probeRoutes({ readiness }) });
  return (req) => {
    const body = req.body ?? '';
    return pipeline(
      {
        method: req.method,
        url: req.path,
        headers: req.headers,
        host: req.headers.host ?? IN_PROCESS_HOST,
        origin: req.headers.origin,
        readBody: async () => {
          if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new BodyTooLarge();
          return body;
        },
      },
      async () => viaApp(await routes(), req),
    )!;
  };
}

async function viaApp(app: FetchApp, req: PlainRequest): Promise<PlainAnswer> {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'TRACE' && req.body !== undefined;
  const init = { method: req.method, headers: { host: IN_PROCESS_HOST, ...req.headers }, body: hasBody ? req.body : undefined };
  let request: Request;
  if (req.method === 'TRACE') {
    // The Fetch Request refuses TRACE; built as a GET that names TRACE, as @hono/node-server
    // does for cr serve, so the routes answer it the same (405 on a table path).
    request = new Request(IN_PROCESS_ORIGIN + req.path, { ...init, method: 'GET' });
    Object.defineProperty(request, 'method', { get: () => 'TRACE' });
  } else request = new Request(IN_PROCESS_ORIGIN + req.path, init);
  const res = await app.fetch(request);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
}
