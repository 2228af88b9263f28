import type { IncomingMessage } from 'node:http';
import type { ObservedRequest, RequestLogEntry } from './pipeline.js';
import { logPath, logReadingFor } from './pipeline.js';
import type { ProbeAnswer } from './probe-routes.js';
import { receivedAt } from './received-at.js';
import { requestIdOf } from './request-id.js';
import type { PlainAnswer } from './table-route.js';

export interface OpeningLogOptions {
  log?: (entry: RequestLogEntry) => void;
  /** The metrics' observer: the same registry the pipeline feeds once the store is open (metrics.ts). */
  observe?: (request: ObservedRequest) => void;
  /** `--log-level debug`: the probe routes are logged too. */
  logProbes: boolean;
}

/** Loads what the log needs to name this request's path (pipeline.ts logReadingFor), if anything. */
export const openingLogReady = (req: IncomingMessage, o: OpeningLogOptions): Promise<unknown> | undefined =>
  o.log ? logReadingFor(req.url ?? '/') : undefined;

/**
 * What the pipeline's `finish` does for every request (pipeline.ts), for an answer given before
 * the store is open (opening-answer.ts): its Date and X-Request-Id, its request log line (a 503
 * names its cause, `starting` or what the start-up waits for) and its count in the metrics, so
 * a load balancer's retries during a start-up are seen (docs/local-server.md "Request log").
 * A path with a percent-escape is logged once openingLogReady has loaded its reading.
 */
export function finishOpening(req: IncomingMessage, answer: PlainAnswer, o: OpeningLogOptions): PlainAnswer {
  const requestId = requestIdOf(req.headers as Record<string, string | undefined>);
  const headers = { ...answer.headers, date: new Date().toUTCString(), 'x-request-id': requestId };
  const arrived = receivedAt.get(req);
  const ms = arrived === undefined ? 0 : Math.round(performance.now() - arrived);
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  if (o.log && (o.logProbes || (answer as Partial<ProbeAnswer>).probe !== true)) {
    o.log({ requestId, method, path: logPath(url), status: answer.status, ms, keyId: answer.keyId, cause: answer.cause });
  }
  o.observe?.({ route: answer.route, url, method, status: answer.status, ms, cause: answer.cause });
  return { ...answer, headers };
}
