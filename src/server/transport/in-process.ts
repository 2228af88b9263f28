import { BodyTooLarge, MAX_BODY_BYTES } from '../app/body.js';
import type { Operations } from '../app/operation-types.js';
import { allowedHostSet } from '../app/host-check.js';
import { extraRoutes } from '../app/extra-routes.js';
import type { Route } from '../app/router.js';
import { createPipeline } from '../app/pipeline.js';
import { probeRoutes } from '../app/probe-routes.js';
import { ReadinessGate } from '../app/readiness-gate.js';
import type { PlainAnswer } from '../app/table-route.js';

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

/** The origin --local's requests name (nothing listens there: they never leave the process). */
export const IN_PROCESS_ORIGIN = 'http://localhost';
const IN_PROCESS_HOST = 'localhost';

/**
 * The local server without a listener, for `--local` (docs/cli-contract.md "Local mode"): a
 * carrier of the request pipeline (pipeline.ts) and its one router (router.ts), which decide
 * everything as over HTTP: Host/Origin, the route table (the endpoint table, OpenAPI, MCP, 404),
 * Date, errors. The local administration answers no one here: it needs a loopback peer, and an
 * in-process request has none (src/server/app/admin-routes.ts).
 *
 * Why not a web `Request`/`Response`: the first use of those globals loads Node's own bundled
 * undici, ~35 ms of a ~250 ms run (measured with `node -e Response` against `node -e 0`); the
 * listener and a loopback round trip cost another ~20 ms. A request names no Host of its own
 * unless given one (`cr api -H`), and then it is judged like one over HTTP.
 */
export function inProcessServer(
  operations: Operations,
  onInternalError: (err: unknown) => void,
  routes: readonly Route[] = extraRoutes(operations),
): InProcessServer {
  // /healthz and /readyz as over HTTP (probe-routes.ts); /metrics is `cr serve`'s alone.
  const readiness = new ReadinessGate();
  readiness.attach(operations.store);
  const pipeline = createPipeline({ operations, allowed: allowedHostSet(), onInternalError, probes: probeRoutes({ readiness }), routes });
  return (req) => {
    const body = req.body ?? '';
    return pipeline({
      method: req.method,
      url: req.path,
      headers: req.headers,
      host: req.headers.host ?? IN_PROCESS_HOST,
      origin: req.headers.origin,
      readBody: async (max = MAX_BODY_BYTES) => {
        if (Buffer.byteLength(body) > max) throw new BodyTooLarge();
        return body;
      },
    });
  };
}
