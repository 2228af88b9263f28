import type { Dispatcher } from 'undici';
import { ApiError, CrError, NetworkError, ResponseError, UsageError } from '../errors.js';
import { maskKey, redactKeys } from '../config/redact.js';
import type { RequestInput, ResponseData } from '../api/io-types.js';
import type { OperationId, Route } from '../api/routes.js';
import { checkJson } from '../api/check-json.js';
import { endpointUrl, joinUrl } from './url.js';
import { responseSchemas } from '../api/generated/response-schemas.js';
import { backoffDelay, isRetryableStatus, RETRY_ATTEMPTS } from './retry.js';
import { describeNetworkFailure, failureCode, isMalformedAnswer } from './network-errors.js';
import { retryWhen } from './rate-budget.js';
import { remainingMs, type Deadline } from './deadline.js';
import { DEFAULT_MAX_RESPONSE_BYTES, TooLargeError, describeBytes, readCapped } from './read-body.js';
import type { ProxyRoutes } from './proxy-env.js';
import { showProxy } from './proxy-vars.js';
import { type Hop, movedBase, nextHop } from './redirects.js';
import { shownValue } from './shown.js';
import { ACCEPT_ENCODING, DecodeError } from './decode-body.js';

export interface ClientOptions {
  baseUrl: string;
  /** Bearer key; may be absent for endpoints without auth (openapi.json). */
  key?: string;
  /** Timeout of one attempt (default 30 s). */
  timeoutMs?: number;
  /** The largest response body read (src/http/read-body.ts). */
  maxResponseBytes?: number;
  /** --timeout: every attempt and pause of every request ends by then (src/http/deadline.ts). */
  deadline?: Deadline;
  userAgent: string;
  /** Writes one line to stderr per request and response when set (--verbose). */
  log?: (line: string) => void;
  /** The CRM product's path segment, when a profile renames it. */
  crmSegment?: string;
  /** Base of the retry backoff; tests shorten it. */
  retryBaseMs?: number;
  /** Shows that a request is under way (a spinner on a terminal). */
  activity?: (label: string) => () => void;
  /** Sees each response's headers (the rate budget notice, src/http/rate-budget.ts). */
  onResponse?: (res: RawResponse) => void;
  /**
   * Sends every request through this undici dispatcher instead of the client's own pool
   * (tests pass a MockAgent for what a real server cannot produce). The caller closes it.
   */
  dispatcher?: Dispatcher;
  /**
   * The run's environment when a proxy variable is set in it (src/http/proxy-vars.ts): the
   * client's own pool then routes by it (src/http/proxy-env.ts). Unset: no proxy code loads.
   */
  proxyEnv?: NodeJS.ProcessEnv;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  text: string;
  /**
   * Set when redirects led to another origin, which is sent neither the key nor the -H headers
   * (src/http/redirects.ts): the URL that answered, as messages show it.
   */
  withoutKeyFrom?: string;
}

/** A request's parts as they go on the wire (any operation); calls are typed by `CallArgs`. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The input of `call`: the operation's typed request, optional when every part of it is. */
export type CallArgs<Op extends OperationId> = Record<never, never> extends RequestInput<Op> ? [input?: RequestInput<Op>] : [input: RequestInput<Op>];

export interface CallResult<T> {
  /** Schema-checked data (unknown fields kept). */
  data: T;
  /** The envelope's data exactly as received, for --json. */
  raw: unknown;
  response: RawResponse;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The HTTP core every command goes through: one keep-alive connection pool, bearer auth,
 * timeout, retry of idempotent requests, envelope → data or a typed error.
 */
export class ApiClient {
  readonly baseUrl: string;
  /**
   * The client's own pool (node:http behind undici's dispatcher interface,
   * src/http/node-dispatcher.ts), made on the first request that needs one: a run with a
   * given dispatcher (--local's in-process carrier) never loads node:http. Only this pool,
   * never a given dispatcher, is closed by close().
   */
  private ownAgent?: Promise<Dispatcher>;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Which requests go through a proxy; read on the first request, only when a proxy variable is set. */
  private routes?: ProxyRoutes;

  private dispatcher(): Promise<Dispatcher> | Dispatcher {
    if (this.options.dispatcher) return this.options.dispatcher;
    this.ownAgent ??= this.ownPool();
    return this.ownAgent;
  }

  private async ownPool(): Promise<Dispatcher> {
    const { NodeHttpDispatcher } = await import('./node-dispatcher.js');
    const env = this.options.proxyEnv;
    if (!env) return new NodeHttpDispatcher({ keepAliveTimeout: 10_000, connections: 16 });
    const { proxyRoutes } = await import('./proxy-env.js');
    const routes = proxyRoutes(env);
    this.routes = routes;
    // The proxy pools load with the first request that goes through one (src/http/node-dispatcher.ts).
    const loadAgent = async () => (await import('./proxy-agents.js')).proxyAgent;
    return new NodeHttpDispatcher({ keepAliveTimeout: 10_000, connections: 16, proxy: routes && { routes, loadAgent } });
  }

  /**
   * Calls one endpoint of the table and returns its data, checked against the endpoint's
   * response schema (as JSON Schema, generated from the zod table: no zod at start-up).
   * The input is typed per operation from the table, so a wrong query key, body field type
   * or missing path parameter fails to compile.
   */
  async call<Op extends OperationId>(ep: Route<Op>, ...[typed]: CallArgs<Op>): Promise<CallResult<ResponseData<Op>>> {
    // Every RequestInput is a CallInput; TypeScript cannot see it through the generic.
    const input = (typed ?? {}) as CallInput;
    const url = this.urlFor(ep, input);
    const res = await this.send(ep.method, url, ep.method === 'GET' ? undefined : (input.body ?? {}));
    const envelope = this.tableAnswer(ep, url, res);
    const problem = checkJson(responseSchemas[ep.operationId], envelope.data);
    if (problem) {
      const where = ['data', ...problem.path.map(String)].join('.');
      throw new ResponseError(`Unexpected response from ${ep.method} ${url}: ${where}: ${problem.message}`, { status: res.status });
    }
    return { data: envelope.data as ResponseData<Op>, raw: envelope.data, response: res };
  }

  /**
   * Unwraps an endpoint's answer. A 404 on a path with no id in it is no missing item: the
   * server has no such path, most likely because the base URL is not the API's (docs/cli-contract.md §5).
   */
  private tableAnswer(ep: Route, url: string, res: RawResponse): { data: unknown } {
    try {
      return this.unwrap(ep.method, url, res);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && !ep.path.includes('{')) {
        e.message += `; the server has no ${ep.path}: is ${this.baseUrl} the API's base URL (the /api/v1 of a cr server)?`;
      }
      throw e;
    }
  }

  /** The URL a call would hit. */
  urlFor(ep: Route, input: CallInput = {}): string {
    return endpointUrl(this.baseUrl, ep, input, this.options.crmSegment);
  }

  /** Joins a path under the base URL and appends the defined query values. */
  resolve(path: string, query?: Record<string, unknown>): string {
    return joinUrl(this.baseUrl, path, query);
  }

  /** Unwraps a success envelope, or throws the typed error the response stands for. */
  unwrap(method: string, url: string, res: RawResponse): { data: unknown } {
    // A refusal after a redirect to another origin took the key away: not the key's fault.
    if ((res.status === 401 || res.status === 403) && res.withoutKeyFrom !== undefined && this.options.key) {
      const at = new URL(res.withoutKeyFrom);
      // Back on the first origin after a hop elsewhere: the key stays dropped (src/http/redirects.ts), and the base URL is right.
      const back = at.origin === new URL(url).origin;
      throw new ResponseError(
        back
          ? `${method} ${redactKeys(url)} was redirected through another origin and back, to ${shownValue(res.withoutKeyFrom)}, which is then not sent the key either, and was answered there with HTTP ${res.status}; the server's redirects, not the key, are the cause`
          : `${method} ${redactKeys(url)} was redirected to another origin, ${shownValue(res.withoutKeyFrom)}, which is not sent the key, and was answered there with HTTP ${res.status}; if the API has moved, ${movedBase(at, url, this.baseUrl)}`,
        { status: res.status },
      );
    }
    if (res.status >= 400) {
      const retryAt = res.status === 429 ? retryWhen(res.headers) : undefined;
      throw ApiError.from(res.status, res.body, method, url, res.headers['retry-after'], retryAt);
    }
    const body = res.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || body.success !== true || !('data' in body)) {
      const got = res.body === undefined ? `a non-JSON body (${res.headers['content-type'] ?? 'no content type'})` : 'JSON without a success envelope';
      throw new ResponseError(`Unexpected response from ${method} ${url}: HTTP ${res.status} with ${got}`, { status: res.status });
    }
    return { data: body.data };
  }

  /**
   * Sends one request, retrying GETs on network errors and 502/503/504. POST is never retried.
   * `headers` are extra request headers (`cr api -H`); they never replace Authorization.
   */
  async send(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
    const attempts = method === 'GET' || method === 'HEAD' ? RETRY_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.once(method, url, body, headers);
        if (attempt < attempts && isRetryableStatus(res.status) && (await this.pause(attempt, `HTTP ${res.status}`))) continue;
        return res;
      } catch (error) {
        if (error instanceof NetworkError && error.retryable && attempt < attempts && (await this.pause(attempt, error.message))) continue;
        throw error;
      }
    }
  }

  /** Waits before the next attempt; false when the --timeout deadline leaves no time for one. */
  private async pause(attempt: number, why: string): Promise<boolean> {
    const ms = backoffDelay(attempt, this.options.retryBaseMs);
    const { deadline } = this.options;
    if (deadline && remainingMs(deadline) <= ms) {
      this.options.log?.(`not retrying after ${why}: the --timeout of ${deadline.seconds} s leaves no time`);
      return false;
    }
    this.options.log?.(`retrying after ${why} in ${ms} ms (attempt ${attempt + 1} of ${RETRY_ATTEMPTS})`);
    await new Promise((r) => setTimeout(r, ms));
    return true;
  }

  /** This attempt's timeout: the per-attempt one, cut to what the deadline leaves. */
  private attemptTimeout(method: string, url: string): { ms: number; byDeadline: boolean } {
    const own = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { deadline } = this.options;
    if (!deadline) return { ms: own, byDeadline: false };
    const left = remainingMs(deadline);
    if (left <= 0)
      throw new NetworkError(method, redactKeys(url), `Timed out: the --timeout of ${deadline.seconds} s (retries included) ran out`, {
        code: 'TIMEOUT',
        retryable: false,
      });
    return left <= own ? { ms: left, byDeadline: true } : { ms: own, byDeadline: false };
  }

  /** One attempt: the request, and the redirects it is answered with that cr follows (src/http/redirects.ts). */
  private async once(method: string, url: string, body?: unknown, extra: Record<string, string> = {}): Promise<RawResponse> {
    let hop: Hop = { url, withKey: true };
    for (let hops = 0; ; hops++) {
      const res = await this.exchange(method, hop.url, body, extra, hop.withKey).catch((error: unknown) => {
        // A proxy variable cr cannot use for the hop's origin (ALL_PROXY=socks5://…): a usage
        // error promises nothing was sent (exit 2), but the first request was.
        if (hops === 0 || !(error instanceof UsageError)) throw error;
        throw new NetworkError(method, redactKeys(hop.url), `${error.message}; a redirect led there after the request to ${redactKeys(url)} was sent`, {
          cause: error,
          code: 'PROXY_ERROR',
          retryable: false,
        });
      });
      const next = nextHop(method, hop, url, res.status, res.headers.location, hops, this.baseUrl);
      if (!next) return hop.withKey ? res : { ...res, withoutKeyFrom: hop.url };
      const dropped = hop.withKey && !next.withKey && (this.options.key || Object.keys(extra).length > 0) ? ' (no Authorization: another origin)' : '';
      this.options.log?.(`  redirected by ${res.status} to ${next.shown}${dropped}`);
      hop = next;
    }
  }

  private async exchange(method: string, url: string, body: unknown, extra: Record<string, string>, withKey: boolean): Promise<RawResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': ACCEPT_ENCODING,
      'user-agent': this.options.userAgent,
    };
    // The -H headers (a cookie, another kind of key) go only where the key may go (src/http/redirects.ts).
    for (const [name, value] of Object.entries(extra)) {
      const lower = name.toLowerCase();
      if (lower !== 'authorization' && (withKey || lower === 'content-type')) headers[lower] = value;
    }
    const key = withKey ? this.options.key : undefined;
    if (key) headers.authorization = `Bearer ${key}`;
    const payload = body === undefined ? undefined : jsonBody(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const log = this.options.log;
    // Before the try: a proxy variable that cannot be read is a usage error, not a network one.
    const dispatcher = await this.dispatcher();
    // hrtime, not performance.now(): the global `performance` loads perf_hooks (~3 ms of start-up).
    const started = process.hrtime.bigint();
    const proxy = this.routes?.proxyFor(new URL(url));
    log?.(
      `> ${method} ${redactKeys(url)}${key ? ` (Authorization: Bearer ${maskKey(key)})` : ''}${proxy ? ` via proxy ${showProxy(proxy.url)} (${proxy.variable})` : ''}`,
    );
    const { ms: timeoutMs, byDeadline } = this.attemptTimeout(method, url);
    let res: Dispatcher.ResponseData | undefined;
    let text: string;
    const done = this.options.activity?.(`${method} ${new URL(url).pathname}`);
    try {
      const target = new URL(url);
      res = await dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: payload,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await readCapped(res, this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    } catch (cause) {
      // A carrier that fails a request with cr's own error has said what is wrong (--local's store
      // found invalid when a collection is first used: src/local/embedded.ts): thrown as it is, never retried.
      if (cause instanceof CrError) throw cause;
      // A body that is not what its Content-Encoding says: the server's answer is broken (exit 1).
      if (cause instanceof DecodeError)
        throw new ResponseError(`Unexpected response from ${method} ${redactKeys(url)}: ${cause.message}`, { cause, status: res?.statusCode });
      // Another attempt would only fetch the same flood: no retry (exit 8).
      if (cause instanceof TooLargeError) {
        const decoded = cause.decoded ? ' once decoded (its Content-Encoding)' : '';
        throw new NetworkError(method, redactKeys(url), `Response too large: more than the ${describeBytes(cause.cap)} cap${decoded} (CR_MAX_RESPONSE_BYTES)`, {
          cause,
          code: 'RESPONSE_TOO_LARGE',
          retryable: false,
        });
      }
      const why = describeNetworkFailure(cause, byDeadline ? this.options.deadline!.seconds * 1000 : timeoutMs);
      // A time-out is told apart from a refused or broken connection (docs/cli-contract.md §5: TIMEOUT, still exit 8),
      // and a proxy's failure from the server's (PROXY_ERROR, src/http/proxy-errors.ts).
      const timedOut = why.startsWith('Timed out');
      // Through a proxy that forwards the request (an http URL), a time-out may be the proxy's or the server's: both named.
      const through = timedOut && proxy ? ` through proxy ${showProxy(proxy.url)} (${proxy.variable})` : '';
      const proxyFailed = (cause as { code?: string }).code === 'PROXY_ERROR';
      throw new NetworkError(method, redactKeys(url), `${why}${through}${byDeadline && timedOut ? ' (--timeout, retries included)' : ''}`, {
        cause,
        code: timedOut ? 'TIMEOUT' : proxyFailed ? 'PROXY_ERROR' : failureCode(cause),
        // A refused proxy, an untrusted certificate or an HTTP/2-only server answers the same again.
        // A malformed answer (src/http/network-errors.ts) comes back the same: not retried either.
        retryable: !(proxyFailed && (cause as { retryable?: boolean }).retryable === false) && failureCode(cause) === undefined && !isMalformedAnswer(cause),
      });
    } finally {
      done?.();
    }
    const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    const flat = flattenHeaders(res.headers);
    log?.(`< ${res.statusCode} ${method} ${redactKeys(url)} (${ms} ms, ${text.length} bytes)`);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const raw = { status: res.statusCode, headers: flat, body: parsed, text };
    this.options.onResponse?.(raw);
    return raw;
  }

  /**
   * Closes the client's own pool when the command is over. A request still under way then
   * was abandoned (a bulk run interrupted by Ctrl-C reports it not sent): it is cut off, not
   * waited for, which would hold the exit up until its answer or its timeout (30 s), past
   * the half second docs/cli-contract.md §7.1 gives Ctrl-C.
   */
  async close(): Promise<void> {
    if (this.ownAgent) await (await this.ownAgent).destroy();
  }
}

/** The body as JSON text; a value too deep to write (thousands of levels) is a usage error, not a crash. */
function jsonBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(`The request body cannot be written as JSON: it is nested too deeply (${err.message})`);
    throw err;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
