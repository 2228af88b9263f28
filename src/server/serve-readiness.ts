import type { ApiStore } from './store/api-store.js';
import type { Readiness, UnavailableCause } from './store/readiness.js';

/** A readiness that is not ready: what a request is refused with (503, its cause) while the store is not open. */
export type NotReady = Readiness & { ready: false };

/**
 * What `cr serve` answers when asked whether it can serve (readiness.ts; docs/shared-sandbox.md,
 * "When the database is not there"): `starting` from the moment it listens until its store is
 * open (a database not up yet: `--wait-for-store`), or the cause that keeps it from opening
 * (a schema newer than this build), then whatever the open store answers. `GET /readyz`
 * answers `serveReadiness()`, and so does a request that arrives before the store is open.
 */
export interface ServeReadiness {
  /** Ready or not now: not ready while the store is not open, else the store's own answer. */
  serveReadiness(): Promise<Readiness>;
  /** Why the server is not ready before the store opens; undefined once it is open. */
  readonly pending: NotReady | undefined;
  /**
   * The first attempt to open failed and start-up waits (a database not up yet, a newer
   * schema): requests are answered 503 at once. During the first attempt (a JSON file opens
   * in milliseconds) they wait for the store instead.
   */
  readonly refusing: boolean;
}

/** The serve start-up's side: it says what it is waiting for, then hands over the open store. */
export interface ServeReadinessControl extends ServeReadiness {
  waiting(cause: UnavailableCause, reason: string): void;
  opened(store: Pick<ApiStore, 'readiness'>): void;
}

export function createServeReadiness(): ServeReadinessControl {
  let pending: NotReady | undefined = { ready: false, cause: 'starting', reason: 'the store is being opened' };
  let store: Pick<ApiStore, 'readiness'> | undefined;
  let refusing = false;
  return {
    get pending() {
      return pending;
    },
    get refusing() {
      return refusing;
    },
    serveReadiness: () => (store ? store.readiness() : Promise.resolve(pending!)),
    waiting(cause, reason) {
      if (store) return;
      pending = { ready: false, cause, reason };
      refusing = true;
    },
    opened(s) {
      store = s;
      pending = undefined;
      refusing = false;
    },
  };
}
