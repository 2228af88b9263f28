import type { Operations } from './operation-types.js';
import type { ProbeAnswer } from './probe-routes.js';
import type { FaultInjector } from './faults.js';
import { requestIdOf } from './request-id.js';
import { dateText } from './date-header.js';
import { hostAndOriginAllowed } from './host-check.js';
import { createRouter } from './router.js';
import type { Route, RouteRequest } from './router.js';
import { errorAnswer } from './table-route.js';
import type { PlainAnswer } from './table-route.js';
import { loadUrlReading, urlReading } from './url-reading.js';

/** One line of the request log: the key's id only, never the key. */
export interface RequestLogEntry {
  /** The client's X-Request-Id when it is a safe one, else one made here (request-id.ts); echoed in the answer. */
  requestId?: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  keyId?: string;
  /** Why a 5xx (or a 503 of /readyz) happened, in one word: a store's UnavailableCause, `store_full`, `internal_error`. */
  cause?: string;
}

/** What the metrics see of each request (metrics.ts): the route's name, never the raw path of a table route. */
export interface ObservedRequest {
  /** The route's name when the answer named one (table-route.ts, probe-routes.ts); else judged from `url`. */
  route: string | undefined;
  url: string;
  method: string;
  status: number;
  ms: number;
  cause: string | undefined;
}

/**
 * The status the request log gives a request whose client left mid-upload (nginx's 499,
 * "client closed request"): one line per request, and none of them a 500 (docs/api-decisions.md §9).
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The path the log names: decoded as Hono decodes it (what `c.req.path` gives), so one
 * request is logged alike whichever carrier took it; the log escapes it (log-text.ts). A path
 * with a percent-escape needs Hono's reading loaded first (logReadingFor).
 */
export function logPath(url: string): string {
  if (url.includes('%')) return urlReading()!.getPath({ url: `http://localhost${url}` } as Request);
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Loads what logPath needs to name `url`, when it is not loaded yet (url-reading.ts); else undefined. */
export const logReadingFor = (url: string): Promise<unknown> | undefined => (url.includes('%') && !urlReading() ? loadUrlReading() : undefined);

export interface PipelineOptions {
  operations: Operations;
  /** Hosts the Host/Origin check accepts (docs/api-decisions.md §8); `false` turns the check off. */
  allowed: ReadonlySet<string> | false;
  log?: (entry: RequestLogEntry) => void;
  /** Unexpected errors (500) are reported here, never to the client. */
  onInternalError: (err: unknown) => void;
  /** /healthz, /readyz, /metrics (probe-routes.ts), answered after the Host/Origin check and before everything else. */
  probes?: (method: string, url: string) => Promise<ProbeAnswer> | undefined;
  /** Log the probe routes too (`cr serve --log-level debug`); by default they are left out of the log. */
  logProbes?: boolean;
  /** Told of every request once answered (metrics.ts). */
  observe?: (request: ObservedRequest) => void;
  /** The route table's entries besides the endpoint table (extra-routes.ts: OpenAPI, MCP, /_local/…). */
  routes?: readonly Route[];
  /**
   * `cr serve --faults` (faults.ts): drawn after the Host check and the probe routes, before the
   * route table (so before the key and the rate limit); an injected answer is logged and
   * observed like any other, and a `drop` comes back `clientGone` for the carrier to destroy.
   */
  faults?: FaultInjector['decide'];
}

/** A request as a carrier hands it over: the router's request, and what the Host/Origin check reads. */
export interface PipelineRequest extends RouteRequest {
  origin: string | undefined;
  /** Whether an error reading the request is its client going away mid-upload (nothing to answer or report). */
  clientGone?: (err: unknown) => boolean;
  /** The status the carrier already answered the connection with, when it refused the request's bytes itself. */
  refusedWith?: () => number | undefined;
  /**
   * When the server took the request (performance.now()), if before the pipeline: `cr serve
   * --faults` latency is waited first, and the log's duration is what the client waited
   * (src/server/app/received-at.ts; docs/api-decisions.md §9).
   */
  arrivedAt?: number;
  /**
   * Takes the answer as soon as it is made, in the same turn (the carrier writes it): no second
   * promise and turn of the microtask queue per request, as waiting on the returned one takes.
   */
  deliver?: (answer: PipelineAnswer) => void;
}

/** An answer of the pipeline; `clientGone` when the client left and the carrier should drop the connection. */
export type PipelineAnswer = PlainAnswer & { clientGone?: true };

/** What a carrier asks the pipeline: the answer to one request, whatever its path (router.ts). */
export type Pipeline = (req: PipelineRequest) => Promise<PipelineAnswer>;

/**
 * The local server's one request pipeline, whatever carries the request (node:http in
 * node-listener.ts, a web Request in app.ts, --local's in-process dispatcher in
 * in-process.ts): Host/Origin (docs/api-decisions.md §8), then the probe routes (/healthz,
 * /readyz, /metrics: probe-routes.ts), then injected faults when `cr serve --faults` asks for
 * them (faults.ts), then the one route table (router.ts): for the endpoint table key, rate
 * limit and its headers, role, media type, validation, scope and handler (operations.ts,
 * table-route.ts), OpenAPI, MCP and /_local/… (extra-routes.ts), else 404; then the Date header from the
 * business clock (§5), the X-Request-Id (request-id.ts), the request log and the metrics'
 * observer, and the error envelope of a throw: 500 with nothing of the error, or 499 in the
 * log when the client left mid-upload.
 * Carriers only translate their request and answer; test/server/decisions.test.ts runs every one.
 */
export function createPipeline(o: PipelineOptions): Pipeline {
  const router = createRouter(o.operations, o.routes);
  const date = dateText(o.operations.clock);
  const { allowed, log, onInternalError, probes, observe, faults } = o;
  const logProbes = o.logProbes === true;
  const timed = log !== undefined || observe !== undefined;
  // Clients send the same Host on every request: the last verdict is kept.
  let lastHost: string | undefined;
  let lastHostOk = false;
  const admitted = (host: string, origin: string | undefined) => {
    if (!allowed) return true;
    if (origin !== undefined) return hostAndOriginAllowed(host, origin, allowed);
    if (host !== lastHost) {
      lastHost = host;
      lastHostOk = hostAndOriginAllowed(host, undefined, allowed);
    }
    return lastHostOk;
  };

  const finish = (req: PipelineRequest, answer: PipelineAnswer, started: number): PipelineAnswer => {
    answer.headers.date = date();
    const requestId = requestIdOf(req.headers);
    answer.headers['x-request-id'] = requestId;
    if (timed) {
      const status = answer.clientGone ? (req.refusedWith?.() ?? CLIENT_CLOSED_REQUEST) : answer.status;
      const ms = Math.round(performance.now() - started);
      if (log && (logProbes || (answer as Partial<ProbeAnswer>).probe !== true)) {
        log({ requestId, method: req.method, path: logPath(req.url), status, ms, keyId: answer.keyId, cause: answer.cause });
      }
      observe?.({ route: answer.route, url: req.url, method: req.method, status, ms, cause: answer.cause });
    }
    req.deliver?.(answer);
    return answer;
  };

  const failure = (req: PipelineRequest, err: unknown): PipelineAnswer => {
    // A client that went away mid-body is no fault of the server's: nothing to report.
    if (req.clientGone?.(err)) return { ...errorAnswer(400, 'Request aborted', 'BAD_REQUEST'), clientGone: true };
    onInternalError(err);
    return { ...errorAnswer(500, 'Internal error', 'INTERNAL_ERROR'), cause: 'internal_error' };
  };

  // A line of the log names the path as Hono reads it: a path that needs its reading waits for it to load.
  const finished = (req: PipelineRequest, answer: PipelineAnswer, started: number): PipelineAnswer | Promise<PipelineAnswer> => {
    const loading = log && logReadingFor(req.url);
    return loading ? loading.then(() => finish(req, answer, started)) : finish(req, answer, started);
  };

  return (req) => {
    const started = timed ? (req.arrivedAt ?? performance.now()) : 0;
    if (!admitted(req.host, req.origin)) return Promise.resolve(finished(req, errorAnswer(403, 'Forbidden host or origin', 'FORBIDDEN'), started));
    let pending: Promise<PipelineAnswer>;
    try {
      const probe = probes?.(req.method, req.url);
      // Faults draw once per request, here, whatever carries it: every path goes through the
      // one router below, so no carrier can draw again or skip the draw.
      const fault = probe ? undefined : faults?.(req.method, req.url);
      pending = probe ?? (fault ? fault.then((f) => f ?? router(req)) : router(req));
    } catch (err) {
      pending = Promise.reject(err);
    }
    return pending.then(
      (answer) => finished(req, answer, started),
      (err: unknown) => finished(req, failure(req, err), started),
    );
  };
}
