import { LOOPBACK_HOSTS } from '../api/vocabulary.js';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Operations } from './app/operation-types.js';
import type { Store } from './store/store.js';
import { openForServing } from './open-for-serving.js';
import { defaultStorePath } from './store/store-path.js';
import { nodeListener, writeAnswer } from './transport/node-listener.js';
import { createPipeline } from './app/pipeline.js';
import { receivedAt, refusedWith } from './app/received-at.js';
import { normaliseTarget } from './transport/request-target.js';
import { allowedHostSet } from './app/host-check.js';
import { ReadinessGate } from './app/readiness-gate.js';
import { probeRoutes } from './app/probe-routes.js';
import { serverLog } from './app/log-format.js';
import type { LogFormat, LogLevel } from './app/log-format.js';
import type { ServingOptions } from './open-for-serving.js';
import { extraRoutes } from './app/extra-routes.js';
import type { Route } from './app/router.js';
import { createFaultInjector } from './app/faults.js';
import { LocalError } from '../errors.js';
import { errorEnvelope } from './domain/errors.js';
import type { FaultPlan } from './app/faults.js';
import { errorSummary, ignoreClosedOutput } from './log-text.js';
import { SERVER_TIMEOUTS, manageConnections } from './transport/connections.js';
import { continueWhenBodyIsRead } from './transport/expect-continue.js';
import type { ConnectionLimits } from './transport/connections.js';
import { DEFAULT_WAIT_FOR_STORE_S, openWaiting } from './store-wait.js';
import { openingAnswer } from './app/opening-answer.js';
import { finishOpening, openingLogReady } from './app/opening-log.js';

/** Where the store is when no path is given (re-exported: commands find it here). */
export { defaultStorePath } from './store/store-path.js';

export interface StartServerOptions extends Omit<ServingOptions, 'notice'> {
  /** The store: a JSON file's path or a postgres:// URL (docs/shared-sandbox.md); default defaultStorePath(). */
  storePath?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** One line per request; default standard error; `false` for none. */
  log?: ((line: string) => void) | false;
  allowedHosts?: string[];
  /** Lines about the store (a fold failing, then working again); default: the log, else standard error. */
  notice?: (line: string) => void;
  /** Extra routes; default: MCP at /api/v1/mcp and OpenAPI at /api/v1/openapi.json. */
  extend?: (operations: Operations) => Route[];
  /** Injected faults (`cr serve --faults`, src/server/app/faults.ts), a step of the request pipeline. */
  faults?: FaultPlan;
  /** Open connections at most, and how long a stop drains (connections.ts). */
  limits?: ConnectionLimits;
  /** `json`: every line of the log one JSON object (log-format.ts); default `text`. */
  logFormat?: LogFormat;
  /** `debug` logs the probe routes too; default `info`. */
  logLevel?: LogLevel;
  /** Serve `GET /metrics` (metrics.ts, which loads prom-client): `cr serve` only. */
  metrics?: boolean;
  /**
   * What `GET /readyz` answers (readiness-gate.ts), where the start-up says what it waits for;
   * default one that says `starting` until the store is open, then asks it.
   */
  readiness?: ReadinessGate;
  /** How long a database that is not up yet is waited for, in seconds (`--wait-for-store`, default 60; 0: not at all). */
  waitForStoreS?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  storePath: string;
  /** Whether it can serve correct data now: `starting` until the store is open, then the store's answer (readiness-gate.ts). */
  readiness: ReadinessGate;
  /** The JSON store file (tests read its stats); reading it over a database (docs/shared-sandbox.md) throws. */
  readonly store: Store;
  operations: Operations;
  /**
   * Stops accepting, finishes in-flight requests (for at most the drain timeout, then closes
   * what is left), flushes store and counters, releases the lock.
   */
  close(): Promise<void>;
}

export { formatLogLine } from './app/log-format.js';

/** Standard error, whose reader may be gone: a failed write never stops the server. */
const stderrLine = (line: string) => {
  ignoreClosedOutput(process.stderr);
  process.stderr.write(line + '\n');
};

const envelopeText = (error: string, code: string) => JSON.stringify(errorEnvelope(error, code));

/**
 * Bytes that are not HTTP (malformed or conflicting Content-Length, a broken request line):
 * Node's parser refuses them before any route runs; answer with the JSON envelope and close,
 * instead of Node's bare 400.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, body] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', envelopeText('Request header fields too large', 'BAD_REQUEST')]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', envelopeText('Request timeout', 'BAD_REQUEST')]
        : [400, 'Bad Request', envelopeText('Bad request', 'BAD_REQUEST')];
  // A connection that ended mid-body (HPE_INVALID_EOF_STATE) is a client gone: its log line stays 499.
  if (err.code !== 'HPE_INVALID_EOF_STATE') refusedWith.set(socket, status);
  socket.end(
    // A Date like every other answer (RFC 9110 §6.6.1: an origin server with a clock sends one).
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nDate: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts the local server over a store (open-for-serving.ts): a JSON file (created when missing;
 * refused when invalid or held by another server) or a PostgreSQL database.
 */
export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 4010;
  const raw = opts.log === false ? undefined : (opts.log ?? stderrLine);
  const log = raw && serverLog(opts.logFormat ?? 'text', raw);
  const write = log?.notice;
  const notice = opts.notice ?? write ?? serverLog(opts.logFormat ?? 'text', stderrLine).notice;
  const onInternalError = opts.onInternalError ?? ((err: unknown) => notice(`cr serve: internal error: ${errorSummary(err)}`));
  // The port first, the store after: a server that cannot listen leaves no store file or
  // journal behind (docs/api-decisions.md §7). Requests that arrive before the store is open wait for it.
  // No Host is judged by the Host check (request-target.ts), not refused by Node with a bare 400.
  const s = createServer({ ...SERVER_TIMEOUTS, requireHostHeader: false });
  const allowedHosts = [...(opts.allowedHosts ?? [])];
  if (!LOOPBACK_HOSTS.has(host) && host !== '0.0.0.0' && host !== '::') allowedHosts.push(host);
  const allowed = allowedHostSet(allowedHosts);
  const readiness = opts.readiness ?? new ReadinessGate();
  const metrics = opts.metrics ? (await import('./app/metrics.js')).createMetrics(readiness) : undefined;
  const probes = probeRoutes({ readiness, metrics: metrics?.text });
  const beforeOpen = openingAnswer({ probes, readiness, allowed });
  const answerBeforeOpen = (req: IncomingMessage, res: ServerResponse): boolean => {
    const early = beforeOpen(req);
    const logged = { log: log?.request, observe: metrics?.observe, logProbes: opts.logLevel === 'debug' };
    if (early) {
      void early.then(async (answer) => {
        await openingLogReady(req, logged);
        writeAnswer(res, finishOpening(req, answer, logged));
      });
    }
    return early !== undefined;
  };
  const connections = manageConnections(s, opts.limits ?? {}, write ?? (() => undefined));
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let opening: Promise<unknown> = Promise.resolve();
  s.on(
    'request',
    connections.wrap((req, res) => {
      normaliseTarget(req);
      // Host names are case-insensitive; the Fetch adapter refuses `LOCALHOST:4010` otherwise.
      if (req.headers.host) req.headers.host = req.headers.host.toLowerCase();
      // The log's duration counts from here, injected latency included; without a log nothing reads it.
      if (write || metrics) receivedAt.set(req, performance.now());
      if (handle) return handle(req, res);
      // The store is not open yet: a probe is answered now by the same probe routes the pipeline
      // answers later (`starting`, or what the start-up waits for), and once the start-up waits,
      // anything else a 503 with that cause (opening-answer.ts); else the request waits for the store.
      if (answerBeforeOpen(req, res)) return;
      void opening.then(() => (handle ? handle(req, res) : answerBeforeOpen(req, res) || res.destroy()));
    }),
  );
  s.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueWhenBodyIsRead(req, res);
    s.emit('request', req, res);
  });
  s.on('clientError', answerClientError);
  let actualPort: number;
  try {
    actualPort = await new Promise<number>((resolvePromise, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => resolvePromise((s.address() as AddressInfo).port));
    });
  } catch (err) {
    // Not an internal failure: say which address, and what to do (docs/cli-contract.md exit 1).
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const where = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      throw new LocalError(`${where} is already in use; pick another with --port (0 picks a free one) or stop what listens there`, 1, {
        cause: err,
        code: 'ADDRESS_IN_USE',
      });
    }
    throw err;
  }
  const storeOptions = metrics ? { ...opts.storeOptions, onGroupCommit: metrics.groupCommit } : opts.storeOptions;
  // Requests held during the first attempt are answered once it ends, opened or not (then 503 while waiting).
  let firstTried: () => void = () => undefined;
  const tried = new Promise<void>((r) => {
    firstTried = r;
  });
  const openedPromise = openStoreWaiting({ ...opts, storeOptions }, readiness, notice, onInternalError, () => firstTried());
  opening = Promise.race([openedPromise.catch(() => undefined), tried]);
  let opened: Awaited<typeof openedPromise>;
  try {
    opened = await openedPromise;
  } catch (err) {
    await connections.drain();
    throw err;
  }
  const { storePath, file, operations } = opened;
  const { rateLimiter } = operations;
  readiness.attach(operations.store);
  metrics?.attachStore(operations.store);
  // One pipeline and one router for every request (router.ts).
  const pipeline = createPipeline({
    operations,
    allowed,
    log: log?.request,
    onInternalError,
    probes,
    logProbes: opts.logLevel === 'debug',
    observe: metrics?.observe,
    routes: (opts.extend ?? extraRoutes)(operations),
    faults:
      opts.faults && createFaultInjector(opts.faults, { limit: rateLimiter.limit, log: write, businessNow: () => operations.clock.now().getTime() }).decide,
  });
  handle = nodeListener(pipeline);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await connections.drain();
      await opened.close();
    })());

  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    host,
    port: actualPort,
    storePath,
    readiness,
    get store(): Store {
      if (!file) throw new Error(`${storePath} is a database: it has no store file`);
      return file;
    },
    operations,
    close,
  };
}

/**
 * Opens the store the way `cr serve` starts (docs/shared-sandbox.md, "When the database is not
 * there"): a database not up yet is waited for (store-wait.ts) while `readiness` says why and
 * requests are answered 503; then the store's own readiness takes over.
 */
function openStoreWaiting(
  opts: StartServerOptions,
  readiness: ReadinessGate,
  notice: (line: string) => void,
  onInternalError: (err: unknown) => void,
  firstTried: () => void,
) {
  const waitMs = (opts.waitForStoreS ?? DEFAULT_WAIT_FOR_STORE_S) * 1000;
  return openWaiting(() => openForServing(opts.storePath ?? defaultStorePath(), { ...opts, notice, onInternalError }), {
    waitMs,
    readiness,
    notice,
    firstTried,
  });
}

/**
 * SIGINT/SIGTERM: stop accepting, finish in-flight requests, flush, exit 0 (docs/api-decisions.md §7).
 * Returns a function that removes the handlers.
 */
export function handleShutdownSignals(
  server: Pick<RunningServer, 'close'>,
  opts: { exit?: (code: number) => void; onError?: (err: unknown) => void } = {},
): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const onSignal = () => {
    if (started) return;
    started = true;
    server.close().then(
      () => exit(0),
      (err) => {
        opts.onError?.(err);
        exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
