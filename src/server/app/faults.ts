import { API_PREFIX } from '../../api/vocabulary.js';
import { routes } from '../../api/routes.js';
import { escapeControls } from '../../render/escape.js';
import { errorEnvelope } from '../domain/errors.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from './probe-paths.js';
import type { PlainAnswer } from './table-route.js';

/**
 * Injected faults for testing scripts against `cr serve` (docs/cli-contract.md "Local mode in CI"),
 * shaped after Toxiproxy (a toxic = a type with attributes, applied with a probability,
 * its "toxicity") and WireMock (fault responses, fixed and random delays):
 *
 *   --faults 'RULE;RULE;…'      RULE = ROUTE:FAULT[,ATTR…]
 *   ROUTE   `*` (every request), an operationId (`scheduleSocialPost`), or a path glob
 *           under /api/v1, where `*` is one path segment and `**` any number (docs/fault-injection.md)
 *   FAULT   status=429|500|503   answer with that error envelope (429 with Retry-After
 *                                and X-RateLimit-* headers, like the real limiter)
 *           latency=DURATION     wait before handling (Toxiproxy latency); jitter=DURATION
 *                                adds a random 0..jitter on top
 *           drop                 destroy the socket without an answer (Toxiproxy
 *                                reset_peer, WireMock CONNECTION_RESET_BY_PEER)
 *   ATTR    rate=P               probability 0..1 that the rule fires (default 1)
 *           retry_after=SECONDS  with status=429: 0..86400 (default 3600, the published value)
 *   DURATION 250ms | 2s | 250 (ms)
 *
 * Rules are tried in order: every firing latency rule adds its delay; the first firing
 * status or drop rule decides the answer. The probe path (/api/v1/openapi.json) is never faulted. Draws come from a seeded PRNG (`--seed`), so
 * the same requests in the same order meet the same faults.
 */
export type Fault = { kind: 'status'; status: 429 | 500 | 503; retryAfter: number } | { kind: 'latency'; ms: number; jitter: number } | { kind: 'drop' };

export interface FaultRule {
  /** The ROUTE as written (for the log). */
  route: string;
  matches(method: string, path: string): boolean;
  fault: Fault;
  rate: number;
}

export interface FaultPlan {
  rules: FaultRule[];
  seed: number;
}

export class FaultSpecError extends Error {}

const STATUSES = new Set([429, 500, 503]);
const MAX_TIMER_MS = 2 ** 31 - 1;
/** What `cr local wait` polls (src/local/wait.ts): left alone by every rule, `*` included. */
export const PROBE_PATH = `${API_PREFIX}/openapi.json`;
/** The longest retry_after: one day (24 of the API's one-hour windows, docs/api-decisions.md §3). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

function duration(value: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1)) : Number.NaN;
  // A timer longer than 2^31-1 ms fires at once: refused rather than turned into no delay.
  if (!(ms <= MAX_TIMER_MS)) throw new FaultSpecError(`${what} must be a duration like 250ms or 2s (at most ${MAX_TIMER_MS}ms), got "${value}"`);
  return ms;
}

const escapeRe = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** A path glob or an operationId → a predicate on (method, path under /api/v1). */
function routeMatcher(route: string): FaultRule['matches'] {
  if (route === '*') return () => true;
  if (route.startsWith('/')) {
    const re = new RegExp(
      '^' +
        route
          .split('/')
          .map((seg) => (seg === '**' ? '.*' : seg.split('*').map(escapeRe).join('[^/]*')))
          .join('/') +
        '/?$',
    );
    return (_m, path) => re.test(path);
  }
  const r = Object.hasOwn(routes, route) ? (routes as Record<string, { method: string; path: string }>)[route] : undefined;
  if (!r) throw new FaultSpecError(`unknown route "${route}": use *, an operationId (e.g. scheduleSocialPost) or a path glob starting with /`);
  const re = new RegExp(
    '^' +
      r.path
        .split(/\{\w+\}/)
        .map(escapeRe)
        .join('[^/]+') +
      '/?$',
  );
  return (method, path) => method === r.method && re.test(path);
}

/** Parses `--faults SPEC` (syntax above); throws FaultSpecError naming the bad part. */
export function parseFaults(spec: string, seed: number): FaultPlan {
  const rules: FaultRule[] = [];
  for (const text of spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = text.lastIndexOf(':');
    if (colon <= 0) throw new FaultSpecError(`"${text}": expected ROUTE:FAULT[,ATTR…], e.g. scheduleSocialPost:status=503,rate=0.2`);
    const route = text.slice(0, colon).trim();
    const [head = '', ...attrs] = text
      .slice(colon + 1)
      .split(',')
      .map((s) => s.trim());
    const [name, value = ''] = head.split('=').map((s) => s.trim()) as [string, string?];
    let fault: Fault;
    if (name === 'status') {
      const status = Number(value);
      if (!STATUSES.has(status)) throw new FaultSpecError(`"${text}": status must be 429, 500 or 503, got "${value}"`);
      fault = { kind: 'status', status: status as 429 | 500 | 503, retryAfter: 3600 };
    } else if (name === 'latency') fault = { kind: 'latency', ms: duration(value, 'latency'), jitter: 0 };
    else if (name === 'drop' && value === '') fault = { kind: 'drop' };
    else throw new FaultSpecError(`"${text}": the fault must be status=429|500|503, latency=DURATION or drop`);
    let rate = 1;
    for (const attr of attrs) {
      const [k, v = ''] = attr.split('=').map((s) => s.trim()) as [string, string?];
      if (k === 'rate') {
        rate = Number(v);
        if (v === '' || !Number.isFinite(rate) || rate < 0 || rate > 1)
          throw new FaultSpecError(`"${text}": rate must be a probability from 0 to 1, got "${v}"`);
      } else if (k === 'jitter' && fault.kind === 'latency') fault.jitter = duration(v, 'jitter');
      else if (k === 'retry_after' && fault.kind === 'status' && fault.status === 429) {
        // At most a day: longer is a typo in a test's fault, and far inside the week the CLI believes (src/http/rate-budget.ts).
        if (!/^\d+$/.test(v) || Number(v) > MAX_RETRY_AFTER_SECONDS)
          throw new FaultSpecError(`"${text}": retry_after must be whole seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}, got "${v}"`);
        fault.retryAfter = Number(v);
      } else
        throw new FaultSpecError(`"${text}": unknown or misplaced attribute "${attr}" (rate=P; jitter= with latency; retry_after=SECONDS with status=429)`);
    }
    rules.push({ route, matches: routeMatcher(route), fault, rate });
  }
  if (rules.length === 0) throw new FaultSpecError('empty fault spec');
  return { rules, seed };
}

/** mulberry32: small, fast and good enough to decide faults; the same seed, the same draws. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The request path goes into the log: shown with control characters escaped.
const escapeLog = (s: string) => escapeControls(s);

const ANSWERS: Record<429 | 500 | 503, [string, string]> = {
  429: ['Rate limit exceeded', 'RATE_LIMITED'],
  500: ['Internal error', 'INTERNAL_ERROR'],
  503: ['Service unavailable', 'SERVICE_UNAVAILABLE'],
};

/** What a fault answers: an error envelope, or a connection dropped without one (`clientGone`: the carrier destroys it). */
export type FaultAnswer = PlainAnswer & { clientGone?: true };

export interface FaultInjector {
  /**
   * Draws the rules for one request: undefined at once when none fires (no promise, no turn of
   * the event loop), else a promise that waits the latency drawn, then gives the answer of a
   * status or drop rule, or undefined for the request to go on.
   */
  decide(method: string, url: string): Promise<FaultAnswer | undefined> | undefined;
}

/**
 * `cr serve --faults` as a step of the request pipeline (pipeline.ts): after the Host check and
 * the probe routes, before the key and the rate limit, so a faulted request costs no rate budget
 * and changes nothing, and is logged and counted like any other answer.
 */
export function createFaultInjector(
  plan: FaultPlan,
  opts: { limit: number; log?: (line: string) => void; now?: () => number; businessNow?: () => number },
): FaultInjector {
  const random = seededRandom(plan.seed);
  const now = opts.now ?? Date.now;
  // The 429's reset is read against the answer's Date, which the pipeline sets from the business clock (date-header.ts).
  const businessNow = opts.businessNow ?? now;
  const answerOf = (fault: Exclude<Fault, { kind: 'latency' }>, index: number): FaultAnswer => {
    if (fault.kind === 'drop') return { status: 499, headers: {}, body: '', clientGone: true, cause: 'injected_fault' };
    const { status, retryAfter } = fault;
    const [error, code] = ANSWERS[status];
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-cr-fault': String(index + 1) };
    if (status === 429) {
      Object.assign(headers, {
        'retry-after': String(retryAfter),
        'x-ratelimit-limit': String(opts.limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil((businessNow() + retryAfter * 1000) / 1000)),
      });
    }
    return { status, headers, body: JSON.stringify(errorEnvelope(error, code)), cause: 'injected_fault' };
  };
  return {
    decide(method, url) {
      const full = url.split('?')[0]!;
      // The probe path is never faulted and draws nothing, so `cr local wait` sees the server up
      // and its polls leave the seeded draws to the requests under test.
      if (full === PROBE_PATH) return undefined;
      // Nor are a balancer's and Prometheus' routes: they report on the server, not the API under test.
      if (full === HEALTH_PATH || full === READY_PATH || full === METRICS_PATH) return undefined;
      const path = full.startsWith(API_PREFIX) ? full.slice(API_PREFIX.length) || '/' : full;
      let delay = 0;
      let decided: { fault: Exclude<Fault, { kind: 'latency' }>; index: number } | undefined;
      const applied: string[] = [];
      plan.rules.forEach((rule, index) => {
        if (decided || !rule.matches(method, path)) return;
        if (rule.rate < 1 && random() >= rule.rate) return;
        if (rule.fault.kind === 'latency') {
          const ms = rule.fault.ms + (rule.fault.jitter ? Math.floor(random() * (rule.fault.jitter + 1)) : 0);
          delay += ms;
          applied.push(`latency ${ms}ms (rule ${index + 1})`);
        } else {
          decided = { fault: rule.fault, index };
          applied.push(`${rule.fault.kind === 'drop' ? 'drop' : `status ${rule.fault.status}`} (rule ${index + 1})`);
        }
      });
      if (applied.length === 0) return undefined;
      opts.log?.(`${new Date(now()).toISOString()} fault ${escapeLog(method)} ${escapeLog(full)}: ${applied.join(', ')}`);
      const answer = decided && answerOf(decided.fault, decided.index);
      if (delay === 0) return Promise.resolve(answer);
      return new Promise((resolve) => setTimeout(() => resolve(answer), Math.min(delay, MAX_TIMER_MS)));
    },
  };
}
