import { BodyTooLarge, MAX_BODY_BYTES } from './body.js';
import type { ServerCore } from './core-types.js';
import { dateText } from './date-header.js';
import { errorAnswer, tableRoutes } from './table-route.js';
import { allowedHostSet, hostAndOriginAllowed } from './host-check.js';
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

/** The Hono app as the fallback uses it: a Fetch handler. */
type FetchApp = { fetch: (req: Request) => Response | Promise<Response> };

/** The origin --local's requests name (nothing listens there: they never leave the process). */
export const IN_PROCESS_ORIGIN = 'http://localhost';
const IN_PROCESS_HOST = 'localhost';

/**
 * The local server without a listener, for `--local` (docs/cli-contract.md "Local mode"): a
 * request to a path of the endpoint table goes through `answerTableRoute`, the code the HTTP
 * listener runs for it (key, rate limit, role, validation, scope), and gets the same `Date`
 * header. Any other path (OpenAPI, MCP, an unknown one) goes through the whole Hono app,
 * built on first use.
 *
 * Why not always the Hono app: it speaks web `Request`/`Response`, and the first use of those
 * globals loads Node's own bundled undici, ~35 ms of a ~250 ms run (measured with
 * `node -e Response` against `node -e 0`); the listener and a loopback round trip cost
 * another ~20 ms. The Host/Origin check runs first, as in the app: a request names no Host
 * of its own unless given one (`cr api -H`), and then it is judged like one over HTTP.
 */
export function inProcessServer(core: ServerCore, fullApp: () => Promise<FetchApp>): InProcessServer {
  const tableRequest = tableRoutes(core);
  const date = dateText(core.clock);
  const allowed = allowedHostSet();
  return async (req) => {
    const answer = await answerOf(req);
    answer.headers.date = date();
    return answer;
  };

  async function answerOf(req: PlainRequest): Promise<PlainAnswer> {
    const host = req.headers.host ?? IN_PROCESS_HOST;
    if (!hostAndOriginAllowed(host, req.headers.origin, allowed)) return errorAnswer(403, 'Forbidden host or origin', 'FORBIDDEN');
    const body = req.body ?? '';
    const table = tableRequest({
      method: req.method,
      url: req.path,
      headers: req.headers,
      readBody: async () => {
        if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new BodyTooLarge();
        return body;
      },
    });
    if (!table) return viaApp(await fullApp(), req);
    try {
      return await table;
    } catch {
      // What the app's error handler answers for a throw outside the pipeline's own catch.
      return errorAnswer(500, 'Internal error', 'INTERNAL_ERROR');
    }
  }
}

async function viaApp(app: FetchApp, req: PlainRequest): Promise<PlainAnswer> {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
  const res = await app.fetch(
    new Request(IN_PROCESS_ORIGIN + req.path, { method: req.method, headers: { host: IN_PROCESS_HOST, ...req.headers }, body: hasBody ? req.body : undefined }),
  );
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
}
