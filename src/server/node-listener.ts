import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_CLOSED_REQUEST } from './app.js';
import type { RequestLogEntry } from './app.js';
import { readIncomingText } from './body.js';
import { receivedAt } from './received-at.js';
import type { ServerCore } from './core-types.js';
import { dateText } from './date-header.js';
import { hostAndOriginAllowed } from './host-check.js';
import { errorAnswer, tableRoutes } from './table-route.js';
import type { PlainAnswer } from './table-route.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface TableFirstOptions {
  core: ServerCore;
  /** Hosts the Host/Origin check accepts (docs/api-decisions.md §8); `false` when the check is off. */
  allowed: ReadonlySet<string> | false;
  log?: (entry: RequestLogEntry) => void;
  onInternalError: (err: unknown) => void;
  /** Everything else: the Hono app through its Node adapter. */
  fallback: Listener;
}

/**
 * `cr serve`'s request listener: a request to a path of the endpoint table, from an allowed
 * Host and Origin, is answered by answerTableRoute straight from Node's request (the same
 * code as the app's routes and --local's carrier: key, rate limit, role, validation, scope),
 * written with writeHead/end. Anything else (a refused Host, OpenAPI, MCP, 404, a path with
 * escapes) goes to the Hono app, which answers it as before.
 *
 * Why: the web Request/Response the Fetch adapter builds around each request, and Hono's
 * router and middleware, were most of the server's CPU per request beyond the pipeline's own
 * checks (docs/benchmarks.md, "Server throughput"), and a table route needs none of them.
 */
export function tableFirstListener(o: TableFirstOptions): Listener {
  const tableRequest = tableRoutes(o.core);
  const date = dateText(o.core.clock);
  const allowed = o.allowed;
  // Clients send the same Host on every request: the last verdict is kept.
  let lastHost: string | undefined;
  let lastHostOk = false;
  const permitted = (host: string, origin: string | undefined) => {
    if (!allowed) return true;
    if (origin !== undefined) return hostAndOriginAllowed(host, origin, allowed);
    if (host !== lastHost) {
      lastHost = host;
      lastHostOk = hostAndOriginAllowed(host, undefined, allowed);
    }
    return lastHostOk;
  };
  return (req, res) => {
    const { host, origin } = req.headers;
    const url = req.url ?? '';
    // Without a Host, or refused by the check: the app answers (and logs) it as it always did.
    if (host === undefined || !permitted(host, origin)) return o.fallback(req, res);
    const started = o.log ? (receivedAt.get(req) ?? performance.now()) : 0;
    const method = req.method ?? 'GET';
    const pending = tableRequest({ method, url, headers: req.headers as Record<string, string | undefined>, readBody: () => readIncomingText(req) });
    if (!pending) return o.fallback(req, res);
    const logLine = (status: number, keyId: string | undefined) => {
      if (!o.log) return;
      const q = url.indexOf('?');
      o.log({ method, path: q === -1 ? url : url.slice(0, q), status, ms: Math.round(performance.now() - started), keyId });
    };
    const send = (answer: PlainAnswer) => {
      // A declared length, as the Fetch adapter sent it: no chunked framing for a body known whole.
      const length = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength;
      const headers = answer.headers;
      headers['content-length'] = String(length);
      headers.date = date();
      res.writeHead(answer.status, headers);
      res.end(answer.body);
      logLine(answer.status, answer.keyId);
    };
    pending.then(send, (err: unknown) => {
      // A client that went away mid-body (its upload aborted) is no fault of the server's:
      // nothing to answer, nothing to report.
      if (req.destroyed && (err as NodeJS.ErrnoException)?.code === 'ECONNRESET') {
        res.destroy();
        logLine(CLIENT_CLOSED_REQUEST, undefined);
        return;
      }
      // What the app's error handler does for a throw outside the pipeline's own catch.
      o.onInternalError(err);
      if (!res.headersSent) send(errorAnswer(500, 'Internal error', 'INTERNAL_ERROR'));
      else res.destroy();
    });
  };
}
