import type { ServerResponse } from 'node:http';
import { errorEnvelope } from './errors.js';
import type { NotReady } from './serve-readiness.js';

/** Seconds a client is told to wait: a database coming up soon, or a schema that waits for an upgrade. */
export const retryAfterOf = (n: NotReady): number => (n.cause === 'schema_newer' ? 30 : 2);

/**
 * The answer to a request that arrives while `cr serve` waits for its store (serve-readiness.ts,
 * docs/shared-sandbox.md "When the database is not there"): the app is not built yet, so the
 * listener answers here. `GET /readyz` gets the readiness itself (503, `{ready, cause, reason}`),
 * `GET /healthz` that the process is alive; anything else the API's 503 envelope with Retry-After.
 */
export function answerNotReady(path: string, notReady: NotReady, res: ServerResponse): void {
  const [status, body] =
    path === '/healthz' ? [200, { status: 'ok' }] : path === '/readyz' ? [503, notReady] : [503, errorEnvelope('Store unavailable', 'STORE_UNAVAILABLE')];
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
  if (status === 503) headers['retry-after'] = String(retryAfterOf(notReady));
  res.writeHead(status, headers).end(text);
}
