/**
 * The routes a load balancer and Prometheus use (docs/local-server.md "Health, readiness,
 * metrics"), at the server's root beside /api/v1: no key, no rate limit, not in the request log
 * at the default level, never faulted. The Host/Origin check still applies (docs/api-decisions.md §8).
 * Apart from their answers (probe-routes.ts) so that the faults' parser can name them cheaply.
 */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';
