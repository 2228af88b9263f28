import type { Dispatcher } from 'undici';
import { Agent, request as httpRequest, type AgentOptions, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { createRequire } from 'node:module';
import type { PeerCertificate } from 'node:tls';
import { Readable } from 'node:stream';
import { DispatcherBase } from './undici-core.js';
import { plainHeaders, refusedHeader } from './request-headers.js';
import { bodyTimeout as bodyTimeoutError, connectTimeout, headersOverflow, headersTimeout, requestAborted, socketError } from './dispatch-errors.js';
import type { ProxyRoute, ProxyRoutes } from './proxy-env.js';
import { proxyCertificate, proxyRefused, proxyTimedOut, proxyUnreachable, tunnelClosed } from './proxy-errors.js';

/**
 * The HTTP core's connection pool for network requests: Node's own `http` client (its native
 * llhttp parser, a keep-alive `http.Agent`) behind undici's dispatcher interface, so the HTTP
 * core's `request()` (src/http/undici-core.ts), an injected MockAgent (tests) and --local's
 * in-process carrier stay interchangeable. Why not undici's Agent: its pool, its client and
 * llhttp compiled to WebAssembly cost a CLI that makes one request more start-up than
 * node:http does (CONTRIBUTING.md "How cr starts", rule 12, with the figures).
 *
 * What undici's Agent did and this keeps (test/core/node-dispatcher.test.ts):
 * - keep-alive connections, at most `connections` per origin, idle ones closed after
 *   `keepAliveTimeout` (or the server's shorter `Keep-Alive: timeout=`) and never keeping the
 *   process alive;
 * - `headersTimeout` (until the response's headers), `bodyTimeout` (the longest silence
 *   between two pieces of the body) and a connect timeout, failing with undici's errors
 *   (UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT, UND_ERR_CONNECT_TIMEOUT), which
 *   src/http/network-errors.ts reads; a refused or reset connection keeps Node's code
 *   (ECONNREFUSED, ECONNRESET); a body cut short is UND_ERR_SOCKET;
 * - the request headers undici refuses (src/http/request-headers.ts);
 * - backpressure: the consumer pauses and resumes the response, and aborting (a timeout
 *   signal, the body cap of src/http/read-body.ts) destroys the connection at once, so the
 *   server sees it go;
 * - the response header limit: Node's (16 KiB, or --max-http-header-size), as undici's default;
 * - through a proxy when the environment names one (src/http/proxy-env.ts; the pools of
 *   src/http/proxy-agents.ts), a proxy's failure told apart from the server's
 *   (src/http/proxy-errors.ts); HTTP/1.1 offered by ALPN, so an HTTP/2-only server says so;
 * - a whole response stands when stray bytes follow it (the connection is dropped), an
 *   unasked-for 101 is a socket error, and every request settles: none is left pending for
 *   the CLI to exit 0 on an empty event loop.
 */
export interface NodeDispatcherOptions {
  /** The most connections open at once to one origin. */
  connections?: number;
  /** How long an idle keep-alive connection stays open, in ms. */
  keepAliveTimeout?: number;
  /** How long a connection may take to open, in ms (undici's default: 10 s). */
  connectTimeout?: number;
  /**
   * Which requests go through a proxy (src/http/proxy-env.ts), and how to load the pools that
   * carry them (src/http/proxy-agents.ts): loaded on the first request a proxy carries, so a
   * run whose requests all go direct (loopback, NO_PROXY) never loads them, nor the tls,
   * https and assert they bring.
   */
  proxy?: { routes: ProxyRoutes; loadAgent: () => Promise<ProxyAgentFactory> };
}

export type ProxyAgentFactory = (protocol: string, proxy: URL, options: AgentOptions) => Agent;

/** undici's handler protocol as request() drives it (src/local/in-process-dispatcher.ts speaks the same). */
interface Handler {
  onConnect?: (abort: (err?: Error) => void, context: unknown) => void;
  onHeaders?: (status: number, raw: Buffer[], resume: () => void, statusText: string) => boolean;
  onData?: (chunk: Buffer) => boolean;
  onComplete?: (trailers: Buffer[]) => void;
  onError?: (err: Error) => void;
}

/**
 * The server certificate's check for an https request through a proxy: against the URL's own
 * host, always. Through a CONNECT tunnel https-proxy-agent starts TLS without the host, and
 * names the server (SNI) only when it is not an IP address (its dist/index.js, connect():
 * `omit(…, 'host')`, setServernameFromNonIpHost); Node then checks the certificate of a server
 * addressed by IP against "localhost", so any certificate for localhost from a trusted CA
 * would pass for https://10.0.0.5. Direct requests keep Node's own check (https.Agent names the host).
 */
function serverIdentityOf(hostname: string): (host: string, cert: PeerCertificate) => Error | undefined {
  const { checkServerIdentity } = createRequire(import.meta.url)('node:tls') as typeof import('node:tls');
  return (_host, cert) => checkServerIdentity(hostname, cert);
}

/** A time-out: the request's own (its signal's TimeoutError), or the dispatcher's headers or connect one. */
function isTimeout(err: Error & { code?: string }): boolean {
  return err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** undici's defaults for a request that names no timeout. */
const DEFAULT_TIMEOUT_MS = 300_000;

/** Node's raw header list (latin1 strings) as the bytes undici hands a handler. */
const rawBuffers = (raw: string[]): Buffer[] => raw.map((s) => Buffer.from(s, 'latin1'));

export class NodeHttpDispatcher extends DispatcherBase {
  private readonly agents = new Map<string, Agent>();
  /** The proxy pools' maker, once a request has gone through a proxy. */
  private proxyAgent?: ProxyAgentFactory;
  private readonly open = new Set<ClientRequest>();
  private idle?: () => void;

  constructor(private readonly options: NodeDispatcherOptions = {}) {
    super();
  }

  /**
   * One keep-alive agent per protocol (and proxy); node:https (and with it TLS) only for an
   * https origin.
   */
  private agentFor(origin: URL): { agent: Agent; request: typeof httpRequest; proxy?: ProxyRoute } {
    const { protocol } = origin;
    const https = protocol === 'https:';
    // node:https loads tls and crypto: only a run that talks TLS pays for them.
    const mod = https ? (createRequire(import.meta.url)('node:https') as typeof import('node:https')) : { Agent, request: httpRequest };
    const proxy = this.options.proxy?.routes.proxyFor(origin);
    const key = `${protocol} ${proxy?.url.href ?? ''}`;
    let agent = this.agents.get(key);
    if (!agent) {
      // `timeout` closes a connection left idle in the pool that long (Node's Agent destroys
      // only free sockets on it, and takes a server's shorter Keep-Alive hint); free sockets
      // are unref'ed, so an idle connection never keeps the CLI from exiting. The defaults are
      // undici's: no limit on connections, 4 s idle.
      const options: AgentOptions = {
        keepAlive: true,
        maxSockets: this.options.connections ?? Infinity,
        timeout: this.options.keepAliveTimeout ?? 4_000,
        scheduling: 'lifo',
        // HTTP/1.1 is what cr speaks: offered as such, an HTTP/2-only server says so in the
        // handshake rather than answer a 403 (src/http/network-errors.ts).
        ...(https ? { ALPNProtocols: ['http/1.1'] } : {}),
      };
      agent = proxy ? this.proxyAgent!(protocol, proxy.url, options) : new mod.Agent(options);
      this.agents.set(key, agent);
    }
    return { agent, request: mod.request as typeof httpRequest, proxy };
  }

  override dispatch(opts: Dispatcher.DispatchOptions, dispatchHandler: Dispatcher.DispatchHandler): boolean {
    if (this.options.proxy && !this.proxyAgent && this.throughProxy(opts)) {
      // The first request a proxy carries loads its pools, then goes.
      this.options.proxy.loadAgent().then(
        (make) => {
          this.proxyAgent = make;
          this.send(opts, dispatchHandler);
        },
        (err: Error) => (dispatchHandler as Handler).onError?.(err),
      );
      return true;
    }
    return this.send(opts, dispatchHandler);
  }

  /** Whether this request's origin goes through a proxy (a proxy URL that cannot be read fails it in send()). */
  private throughProxy(opts: Dispatcher.DispatchOptions): boolean {
    try {
      return this.options.proxy?.routes.proxyFor(new URL(String(opts.origin))) !== undefined;
    } catch {
      return false;
    }
  }

  private send(opts: Dispatcher.DispatchOptions, dispatchHandler: Dispatcher.DispatchHandler): boolean {
    // Only cr's request() (src/http/undici-core.ts) calls this dispatcher: its handler is undici's classic protocol.
    const handler = dispatchHandler as Handler;
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    // Through a proxy: the proxy and the tunnel it was asked for (set below, read by fail()).
    let proxy: ProxyRoute | undefined;
    let tunnelled = false;
    const arm = (ms: number | null | undefined, make: () => Error) => {
      if (timer) clearTimeout(timer);
      timer = ms === 0 ? undefined : setTimeout(() => fail(make()), ms ?? DEFAULT_TIMEOUT_MS).unref();
    };
    const end = () => {
      ended = true;
      if (timer) clearTimeout(timer);
      if (req) this.settled(req);
    };
    const fail = (err: Error) => {
      if (ended) return;
      end();
      req?.destroy();
      res?.destroy();
      // Out of time before the tunnel an https request asked the proxy for: the proxy did not
      // open it (src/http/proxy-errors.ts). An http request's proxy forwards it, so its silence
      // may be the server's: a time-out as any other (src/http/client.ts names the proxy).
      const tunnelWait = proxy?.tunnel && !res && !tunnelled && isTimeout(err);
      handler.onError?.(tunnelWait ? proxyTimedOut(proxy!, origin, opts.headersTimeout ?? DEFAULT_TIMEOUT_MS, err) : err);
    };
    // The abort function request() keeps: its signal (a timeout, Ctrl-C) or a consumer that
    // stops reading (the body cap) ends the request and drops the connection.
    handler.onConnect?.((err) => fail(err ?? requestAborted()), null);
    if (ended) return true;

    let body: string | Uint8Array | Readable | undefined;
    let options: RequestOptions;
    let send: typeof httpRequest;
    let origin!: URL;
    try {
      origin = new URL(String(opts.origin));
      const headers = plainHeaders(opts.headers);
      body = requestBody(opts.body);
      const length = body === undefined ? 0 : body instanceof Readable ? undefined : Buffer.byteLength(body);
      const refused = refusedHeader(headers, length);
      if (refused) throw refused;
      if (length !== undefined && length > 0) headers['content-length'] ??= String(length);
      const { agent, request, proxy: route } = this.agentFor(origin);
      send = request;
      proxy = route;
      const hostname = origin.hostname.replace(/^\[(.*)\]$/, '$1');
      options = {
        protocol: origin.protocol,
        hostname,
        port: origin.port,
        method: opts.method,
        path: opts.path,
        headers,
        agent,
        // Again per request: through a CONNECT tunnel https-proxy-agent opens the server's TLS
        // from the request's options, not the agent's (its dist/index.js, connect()).
        ...(origin.protocol === 'https:' ? { ALPNProtocols: ['http/1.1'] } : {}),
        ...(origin.protocol === 'https:' && route ? { checkServerIdentity: serverIdentityOf(hostname) } : {}),
      };
    } catch (err) {
      queueMicrotask(() => fail(err as Error));
      return true;
    }

    arm(opts.headersTimeout, () => headersTimeout());
    try {
      req = send(options);
    } catch (err) {
      // Node refuses some headers or paths synchronously (an invalid character).
      queueMicrotask(() => fail(err as Error));
      return true;
    }
    this.open.add(req);
    // Through a proxy, a failure before the way to the server is open is the proxy's: it
    // cannot be reached, or it refused the tunnel (https-proxy-agent's 'proxyConnect'), or
    // asked for credentials (407, for an http URL the proxy answers itself).
    if (proxy) {
      const route = proxy;
      req.on('proxyConnect', (connect: { statusCode?: number; statusText?: string }) => {
        // http-proxy-agent says so too, with no status: connected to the proxy, which answers for the server.
        if (connect.statusCode === undefined) return;
        if (connect.statusCode === 200) tunnelled = true;
        else fail(proxyRefused(route, `${origin.hostname}:${origin.port || 443}`, connect.statusCode, connect.statusText ?? ''));
      });
    }
    req.on('error', (err: Error & { code?: string }) => {
      // Bytes after a whole response (a 204 with a body, more than its Content-Length): Node's
      // parser fails on them as on the next response and drops the connection, but the
      // response asked for is complete and its 'end' still comes. undici kept it too.
      if (res?.complete) return;
      // Before its tunnel is open, an https request has spoken only to the proxy; an http one
      // always speaks to it, the server's own failures coming back as the proxy's answers.
      // An https:// proxy's own certificate fails before any tunnel: the proxy's, whatever the URL's scheme.
      const proxyCert = proxy && !res && !tunnelled && proxy.url.protocol === 'https:' ? proxyCertificate(proxy, err) : undefined;
      if (proxyCert) return fail(proxyCert);
      if (proxy && !res && !tunnelled && (origin.protocol === 'https:' || isConnectionFailure(err))) return fail(proxyUnreachable(proxy, err));
      if (proxy && !res && tunnelled && isConnectionFailure(err)) return fail(tunnelClosed(proxy, `${origin.hostname}:${origin.port || 443}`, err));
      fail(undiciError(err));
    });
    // A 101 the request did not ask for (or an answer to CONNECT): Node hands the socket to
    // these events' listeners and, with none, destroys it without a word, so the request
    // would never settle (and with nothing else keeping the event loop alive, the CLI would
    // exit 0 having printed nothing). undici's error for it.
    const refuseUpgrade = (_res: IncomingMessage, socket: { destroy: () => void }) => {
      socket.destroy();
      fail(socketError('bad upgrade'));
    };
    req.on('upgrade', refuseUpgrade);
    req.on('connect', refuseUpgrade);
    // Whatever else ends the request before a response without an error: never left unsettled.
    req.on('close', () => {
      if (!res) fail(socketError('other side closed'));
    });
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const connectTimer = setTimeout(() => fail(connectTimeout()), this.options.connectTimeout ?? 10_000).unref();
      socket.once('connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    req.on('response', (incoming) => {
      res = incoming;
      if (ended) return void incoming.destroy();
      if (proxy && !tunnelled && incoming.statusCode === 407) {
        incoming.destroy();
        return fail(proxyRefused(proxy, origin.host, 407, incoming.statusMessage ?? ''));
      }
      const bodyTimeout = () => arm(opts.bodyTimeout, () => bodyTimeoutError());
      // While the consumer holds the body back, its silence is not the server's: the body
      // timeout waits, as undici's does, and starts again on resume.
      const pause = () => {
        incoming.pause();
        if (timer) clearTimeout(timer);
        timer = undefined;
      };
      const resume = () => {
        if (ended || !incoming.isPaused()) return;
        bodyTimeout();
        incoming.resume();
      };
      bodyTimeout();
      const goOn = handler.onHeaders?.(incoming.statusCode ?? 0, rawBuffers(incoming.rawHeaders), resume, incoming.statusMessage ?? '');
      if (ended) return;
      incoming.on('data', (chunk: Buffer) => {
        if (ended) return;
        bodyTimeout();
        if (handler.onData?.(chunk) === false) pause();
      });
      if (goOn === false) pause();
      incoming.on('end', () => {
        if (ended) return;
        end();
        handler.onComplete?.(rawBuffers(incoming.rawTrailers));
      });
      incoming.on('error', fail);
      // The connection closed before the whole body came (a length it did not keep).
      incoming.on('close', () => fail(socketError('other side closed')));
    });
    if (body instanceof Readable) {
      body.on('error', fail);
      body.pipe(req);
    } else req.end(body);
    return true;
  }

  private settled(req: ClientRequest): void {
    this.open.delete(req);
    if (this.open.size === 0) this.idle?.();
  }

  /** Waits for the requests under way, then closes every connection. */
  override async close(): Promise<void> {
    if (this.open.size > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    await this.destroy();
  }

  /** Closes every connection now; requests under way fail. */
  override async destroy(): Promise<void> {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * Node's client errors that undici named otherwise, in undici's terms (src/http/network-errors.ts
 * reads the codes):
 * - headers past the limit: undici's "Headers Overflow Error";
 * - a TLS handshake that fails while the request is written (an https URL to a plain HTTP
 *   server) comes as EPROTO with OpenSSL's text (file names, a newline); undici read it and
 *   had it by OpenSSL's reason, as Node names it elsewhere: ERR_SSL_WRONG_VERSION_NUMBER.
 */
function undiciError(err: Error & { code?: string }): Error {
  if (err.code === 'HPE_HEADER_OVERFLOW') return headersOverflow();
  const reason = err.code === 'EPROTO' ? /SSL routines:[^:]*:([^:\n]+)/.exec(err.message)?.[1] : undefined;
  if (reason) {
    const code = `ERR_SSL_${reason
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')}`;
    return Object.assign(new Error(`TLS: ${reason.trim()}`, { cause: err }), { code });
  }
  return err;
}

/** The errors of a connection that never opened (or was cut before the proxy answered). */
function isConnectionFailure(err: Error & { code?: string }): boolean {
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EADDRNOTAVAIL', 'EINVAL'].includes(
    err.code ?? '',
  );
}

/** A request body as Node's client writes it: text, bytes, or a stream (async iterables too). */
function requestBody(body: Dispatcher.DispatchOptions['body']): string | Uint8Array | Readable | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof Readable) return body;
  const iterable = body as unknown as Partial<AsyncIterable<Uint8Array>> & Partial<Iterable<Uint8Array>>;
  if (typeof iterable[Symbol.asyncIterator] === 'function' || typeof iterable[Symbol.iterator] === 'function')
    return Readable.from(iterable as AsyncIterable<Uint8Array>, { objectMode: false });
  throw new TypeError('the request body must be a string, bytes, a stream or an iterable');
}
