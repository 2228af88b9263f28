import type { ApiStore } from './store/api-store.js';
import type { Readiness } from './store/readiness.js';

/** How long one answer of the store's readiness is reused: several balancers poll every few seconds. */
export const READINESS_CACHE_MS = 1000;

/** What `GET /readyz` says while no store is open yet (docs/local-server.md "Health, readiness, metrics"). */
export const STARTING: Readiness = Object.freeze({ ready: false, cause: 'starting', reason: 'the server is opening its store' });

/**
 * Where `GET /readyz` reads whether this server can serve correct data now. The serve code
 * owns it: it says `starting` until a store is attached, and may say something of its own
 * at any time (`hold`, e.g. while it reconnects); once a store is attached and nothing is held,
 * the store answers (ApiStore.readiness, src/server/store/readiness.ts). A store's answer is
 * kept for READINESS_CACHE_MS and concurrent polls share one question, so a database store's
 * query runs at most about once a second whatever the number of balancers.
 */
export class ReadinessGate {
  private held: Readiness | undefined = STARTING;
  private store: Pick<ApiStore, 'readiness'> | undefined;
  private cached: { at: number; answer: Promise<Readiness> } | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The store to ask from now on; clears `starting`. */
  attach(store: Pick<ApiStore, 'readiness'>): void {
    this.store = store;
    this.cached = undefined;
    if (this.held === STARTING) this.held = undefined;
  }

  /** Answers `readiness` instead of the store until called again with undefined. */
  hold(readiness: Readiness | undefined): void {
    this.held = readiness;
  }

  check(): Promise<Readiness> {
    if (this.held) return Promise.resolve(this.held);
    const store = this.store;
    if (!store) return Promise.resolve(STARTING);
    const at = this.now();
    if (this.cached && at - this.cached.at < READINESS_CACHE_MS) return this.cached.answer;
    // A store that throws instead of answering cannot serve either: its words stay in the process.
    const answer = store
      .readiness()
      .catch((): Readiness => ({ ready: false, cause: 'database_unreachable', reason: 'the store did not answer its readiness check' }));
    this.cached = { at, answer };
    return answer;
  }
}
