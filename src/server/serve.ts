import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp, createCore } from './app.js';
import type { AppOptions, RequestLogEntry, ServerCore } from './app.js';
import { clockFromEnv, realClock } from './clock.js';
import type { Clock, RealClock } from './clock.js';
import { Store } from './store.js';
import type { OpenStoreOptions } from './store.js';
import type { StoreFs } from './fs-layer.js';
import { RateLimiter, rateLimitFileOf } from './rate-limit.js';
import { mountExtraRoutes } from './extra-routes.js';

/** `$CR_STORE`, else `$XDG_DATA_HOME/cr/store.json`, else `~/.local/share/cr/store.json`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CR_STORE?.trim()) return resolve(env.CR_STORE.trim());
  const dataHome = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share');
  return join(dataHome, 'cr', 'store.json');
}

export interface StartServerOptions {
  storePath?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  rateLimit?: number;
  /** One line per request; default standard error; `false` for none. */
  log?: ((line: string) => void) | false;
  /** Business clock; default from CR_NOW, else the system clock. */
  clock?: Clock;
  /** Real clock of the rate-limit window (tests only). */
  realClock?: RealClock;
  allowedHosts?: string[];
  fs?: StoreFs;
  /** Journal fold thresholds and backups kept (tests; defaults in Store.open). */
  storeOptions?: Pick<OpenStoreOptions, 'journalMaxBytes' | 'journalMaxRecords' | 'backups'>;
  /** Extra routes; default: MCP at /api/v1/mcp and OpenAPI at /api/v1/openapi.json. */
  extend?: AppOptions['extend'];
  onInternalError?: (err: unknown) => void;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  storePath: string;
  store: Store;
  core: ServerCore;
  /** Stops accepting, finishes in-flight requests, flushes store and counters, releases the lock. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export const formatLogLine = (e: RequestLogEntry, at = new Date()) =>
  `${at.toISOString()} ${e.method} ${e.path} ${e.status} ${e.ms}ms key=${e.keyId ?? '-'}`;

/**
 * Starts the local server over a store file (created when missing; refused when invalid or
 * held by another server).
 */
export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const storePath = resolve(opts.storePath ?? defaultStorePath());
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 4010;
  const clock = opts.clock ?? clockFromEnv();
  const store = await Store.open(storePath, { ...opts.storeOptions, fs: opts.fs });
  let rateLimiter: RateLimiter;
  try {
    rateLimiter = new RateLimiter({ limit: opts.rateLimit, now: opts.realClock ?? realClock, file: rateLimitFileOf(storePath), fs: opts.fs });
  } catch (err) {
    await store.close();
    throw err;
  }
  const write = opts.log === false ? undefined : (opts.log ?? ((line: string) => process.stderr.write(line + '\n')));
  const core = createCore({ store, clock, rateLimiter, onInternalError: opts.onInternalError });
  const allowedHosts = [...(opts.allowedHosts ?? [])];
  if (!LOOPBACK.has(host) && host !== '0.0.0.0' && host !== '::') allowedHosts.push(host);
  const app = createApp({ store, core, allowedHosts, extend: opts.extend ?? mountExtraRoutes, onInternalError: opts.onInternalError, log: write ? (e) => write(formatLogLine(e)) : undefined });

  let server: Server;
  let actualPort: number;
  try {
    ({ server, port: actualPort } = await new Promise<{ server: Server; port: number }>((resolvePromise, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port }, (info) => resolvePromise({ server: s as Server, port: info.port })) as Server;
      s.once('error', reject);
    }));
  } catch (err) {
    await rateLimiter.stop();
    await store.close();
    throw err;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((res) => {
        server.close(() => res());
        server.closeIdleConnections?.();
      });
      await rateLimiter.stop();
      await store.close();
    })());

  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { url: `http://${urlHost}:${actualPort}`, host, port: actualPort, storePath, store, core, close };
}

/**
 * SIGINT/SIGTERM: stop accepting, finish in-flight requests, flush, exit 0 (decisions.md §7).
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
