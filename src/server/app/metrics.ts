import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { API_PREFIX } from '../../api/vocabulary.js';
import { LOCAL_ADMIN_PREFIX } from './admin-routes.js';
import type { ObservedRequest } from './pipeline.js';
import type { ReadinessGate } from './readiness-gate.js';
import { poolStatsOf } from '../store/metrics-hooks.js';

/**
 * `GET /metrics` (docs/local-server.md "Health, readiness, metrics"), in Prometheus' text format
 * by prom-client. Loaded by `cr serve` only (serve.ts imports this module on demand), never on
 * the CLI's start-up path. Labels are names the server chose (an operation id, a route
 * template, a status, a cause), never a path with ids in it, a key, a key id or a record.
 */

/** Request durations: 1 ms to 5 s, enough to tell a cached summary from a durable write and a stall. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Writes per group commit: one fsync covers them all (docs/api-decisions.md §7). */
const GROUP_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
/** Methods a client may send are any token: the rest are counted as `other`, so labels stay few. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']);
const PROBES = new Set(['healthz', 'readyz', 'metrics']);

/** The route's name of a request whose answer named none (404s, Host refusals). */
function routeOf(r: ObservedRequest): string {
  if (r.route) return r.route;
  const q = r.url.indexOf('?');
  const path = q === -1 ? r.url : r.url.slice(0, q);
  if (path === `${API_PREFIX}/openapi.json`) return 'openapi';
  if (path === `${API_PREFIX}/mcp`) return 'mcp';
  if (path.startsWith(`${LOCAL_ADMIN_PREFIX}/`)) return 'local_admin';
  return 'unmatched';
}

export interface ServerMetrics {
  /** The request pipeline's observer (pipeline.ts `observe`). */
  observe(r: ObservedRequest): void;
  /** The JSON store's group commit (commit-options.ts `onGroupCommit`). */
  groupCommit(writes: number): void;
  /** The store whose pool is read on each scrape, once open. */
  attachStore(store: object): void;
  /** The exposition text. */
  text(): Promise<string>;
}

export function createMetrics(readiness: ReadinessGate): ServerMetrics {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  collectDefaultMetrics({ register: registry });
  let store: object | undefined;

  // Counted here, handed to prom-client at each scrape: a Map lookup a request instead of
  // prom-client's label validation and hashing (docs/benchmarks.md, "Probes, metrics, request ids").
  const counts = new Map<string, { labels: { route: string; method: string; status: string }; n: number }>();
  new Counter({
    name: 'cr_http_requests_total',
    help: 'Requests answered, by route (operation id or route name), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
    collect() {
      this.reset();
      for (const { labels, n } of counts.values()) this.inc(labels, n);
    },
  });
  const latency = new Histogram({
    name: 'cr_http_request_duration_seconds',
    help: 'Time from taking a request to its answer, by route',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const refused = new Counter({
    name: 'cr_http_refused_total',
    help: 'API requests answered 429 (cause rate_limited) or 5xx, by status and cause',
    labelNames: ['status', 'cause'] as const,
    registers,
  });
  const groups = new Histogram({
    name: 'cr_store_group_commit_writes',
    help: 'Writes made durable by one group commit of the JSON store (one journal fsync each)',
    buckets: GROUP_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'cr_store_pool_connections',
    help: "Connections of the database store's pool, by state (in_use, idle, waiting callers)",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = store && poolStatsOf(store);
      if (!stats) return;
      this.set({ state: 'in_use' }, stats.inUse);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'cr_ready',
    help: 'Whether GET /readyz answers 200 (1) or 503 (0, with its cause)',
    labelNames: ['cause'] as const,
    registers,
    async collect() {
      const r = await readiness.check();
      this.reset();
      this.set({ cause: r.ready ? '' : r.cause }, r.ready ? 1 : 0);
    },
  });

  return {
    observe(r) {
      const route = routeOf(r);
      const method = METHODS.has(r.method) ? r.method : 'other';
      const key = `${route} ${method} ${r.status}`;
      const counted = counts.get(key);
      if (counted) counted.n++;
      else counts.set(key, { labels: { route, method, status: String(r.status) }, n: 1 });
      const status = String(r.status);
      latency.observe({ route }, r.ms / 1000);
      if (PROBES.has(route)) return;
      if (r.status === 429) refused.inc({ status, cause: 'rate_limited' });
      else if (r.status >= 500) refused.inc({ status, cause: r.cause ?? 'unknown' });
    },
    groupCommit: (writes) => groups.observe(writes),
    attachStore(s) {
      store = s;
    },
    text: () => registry.metrics(),
  };
}
