import type { ReadinessGate } from './readiness-gate.js';
import { errorAnswer } from './table-route.js';
import type { PlainAnswer } from './table-route.js';
import { retryAfterOf } from './unavailable.js';

import { HEALTH_PATH, METRICS_PATH, READY_PATH } from './probe-paths.js';

export { HEALTH_PATH, METRICS_PATH, READY_PATH } from './probe-paths.js';

/** The Prometheus text exposition format, version 0.0.4. */
export const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const PROBE_METHODS = 'GET, HEAD';
const NO_STORE = { 'cache-control': 'no-store' };

export interface ProbeOptions {
  readiness: ReadinessGate;
  /** The metrics text (metrics.ts); no `/metrics` route without it. */
  metrics?: () => Promise<string>;
}

/** An answer of a probe route: marked so that the log leaves it out at the default level. */
export type ProbeAnswer = PlainAnswer & { probe: true };

const json = (route: string, status: number, body: unknown, headers: Record<string, string> = {}): ProbeAnswer => ({
  route,
  status,
  headers: { ...NO_STORE, ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
  probe: true,
});

const probe = (answer: PlainAnswer, route: string): ProbeAnswer => ({ ...answer, headers: { ...NO_STORE, ...answer.headers }, route, probe: true });

async function readyAnswer(gate: ReadinessGate): Promise<ProbeAnswer> {
  const r = await gate.check();
  if (r.ready) return json('readyz', 200, { success: true, data: { ready: true } });
  // The envelope of docs/api-decisions.md §1: the cause and the operator's sentence as details.
  const answer = json(
    'readyz',
    503,
    {
      success: false,
      error: 'Not ready',
      code: 'NOT_READY',
      details: [
        { path: 'cause', message: r.cause },
        { path: 'reason', message: r.reason },
      ],
    },
    { 'retry-after': String(retryAfterOf(r.cause)) },
  );
  answer.cause = r.cause;
  return answer;
}

/**
 * Answers a request to a probe path (the query string is ignored), or returns undefined for
 * any other path. Called by the request pipeline (pipeline.ts) after the Host/Origin check, and
 * by `cr serve`'s listener while its store is still opening (serve.ts), so that a balancer
 * reads `starting` instead of waiting.
 */
export function probeRoutes(o: ProbeOptions): (method: string, url: string) => Promise<ProbeAnswer> | undefined {
  return (method, url) => {
    // Cheap first: almost every request is under /api/v1.
    if (url.charCodeAt(1) === 0x61 /* a */) return undefined;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = path === HEALTH_PATH ? 'healthz' : path === READY_PATH ? 'readyz' : path === METRICS_PATH && o.metrics ? 'metrics' : undefined;
    if (!route) return undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      return Promise.resolve(probe(errorAnswer(405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { Allow: PROBE_METHODS }), route));
    }
    if (route === 'healthz') return Promise.resolve(json('healthz', 200, { success: true, data: { status: 'ok' } }));
    if (route === 'readyz') return readyAnswer(o.readiness);
    return o.metrics!().then((text) => probe({ status: 200, headers: { 'content-type': METRICS_TYPE }, body: text }, route));
  };
}
