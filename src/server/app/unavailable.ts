import { HttpError } from '../domain/errors.js';
import type { UnavailableCause } from '../store/readiness.js';

/**
 * How long a client should wait before asking again, by why the store cannot answer
 * (docs/api-decisions.md §1, the 503 row): a server still opening its store or a pool briefly
 * full clears in seconds; a database that went away takes longer to come back; a lost lock,
 * a full disk, a newer schema or a database refusing the server's login (its password changed,
 * its role disabled) need an operator, so clients are told to come back much later.
 */
const RETRY_AFTER_SECONDS: Record<UnavailableCause, number> = {
  starting: 2,
  pool_exhausted: 1,
  write_failed: 5,
  database_unreachable: 5,
  disk_full: 60,
  lock_lost: 60,
  schema_newer: 60,
  database_auth_failed: 60,
};

export const retryAfterOf = (cause: UnavailableCause): number => RETRY_AFTER_SECONDS[cause] ?? 5;

/**
 * The API's 503: the envelope of docs/api-decisions.md §1 with the cause as its one detail
 * (`details: [{path: "cause", message: "<cause>"}]`, the shape every client already reads),
 * and `Retry-After` in seconds.
 */
export const storeUnavailable = (cause: UnavailableCause) =>
  new HttpError(503, 'Store unavailable', 'STORE_UNAVAILABLE', [{ path: 'cause', message: cause }], { 'Retry-After': String(retryAfterOf(cause)) });
