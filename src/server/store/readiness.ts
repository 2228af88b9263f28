/**
 * Whether a store can serve correct data now: what `GET /readyz` answers and what a 503 names
 * as its cause (docs/shared-sandbox.md). A cause is one word a log line, a metric label and a
 * client can all carry; the reason is the sentence an operator reads.
 */
export type UnavailableCause =
  | 'starting'
  | 'database_unreachable'
  | 'database_auth_failed'
  | 'lock_lost'
  | 'schema_newer'
  | 'disk_full'
  | 'pool_exhausted'
  | 'write_failed';

export type Readiness = { ready: true } | { ready: false; cause: UnavailableCause; reason: string };

export const READY: Readiness = Object.freeze({ ready: true });
