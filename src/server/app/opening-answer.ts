import type { IncomingMessage } from 'node:http';
import { hostAndOriginAllowed } from './host-check.js';
import type { ProbeAnswer } from './probe-routes.js';
import type { ReadinessGate } from './readiness-gate.js';
import { errorAnswer } from './table-route.js';
import type { PlainAnswer } from './table-route.js';
import { storeUnavailable } from './unavailable.js';

export interface OpeningAnswerOptions {
  /** The probe routes the pipeline answers once the store is open (probe-routes.ts). */
  probes: (method: string, url: string) => Promise<ProbeAnswer> | undefined;
  readiness: ReadinessGate;
  /** Hosts the Host/Origin check accepts (docs/api-decisions.md §8). */
  allowed: ReadonlySet<string>;
}

/**
 * What `cr serve`'s listener answers while its store is not open yet (serve.ts): the app and
 * its pipeline need the open store, so this stands in for them, with the same parts. A probe
 * path is answered by the same probe routes (probe-routes.ts): `GET /readyz` says `starting`, or
 * what the start-up waits for (`schema_newer`; docs/shared-sandbox.md "When the database is not
 * there"). Once the start-up waits (ReadinessGate.refusing), any other request gets the API's
 * 503 with that cause and its Retry-After (unavailable.ts), as the pipeline answers a request
 * the store refused, after the same Host/Origin check. Otherwise undefined: the request waits
 * for the store (a JSON file opens in milliseconds).
 */
export function openingAnswer(o: OpeningAnswerOptions): (req: IncomingMessage) => Promise<PlainAnswer> | undefined {
  return (req) => {
    const host = req.headers.host;
    const admitted = host !== undefined && hostAndOriginAllowed(host, req.headers.origin, o.allowed);
    const probe = admitted ? o.probes(req.method ?? 'GET', req.url ?? '/') : undefined;
    if (probe) return probe;
    if (!o.readiness.refusing) return undefined;
    if (!admitted) return Promise.resolve(errorAnswer(403, 'Forbidden host or origin', 'FORBIDDEN'));
    return o.readiness.check().then((r) => {
      const cause = r.ready ? 'starting' : r.cause;
      const refused = storeUnavailable(cause);
      return { status: refused.status, headers: { ...refused.headers, 'content-type': 'application/json' }, body: JSON.stringify(refused.body), cause };
    });
  };
}
