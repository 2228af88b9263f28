import type { ApiStore } from '../store/api-store.js';
import type { Readiness, UnavailableCause } from '../store/readiness.js';

/** How long one answer of the store's readiness is reused: several balancers poll every few seconds. */
export const READINESS_CACHE_MS = 1000;

/** What `GET /readyz` says while no store is open yet (docs/local-server.md "Health, readiness, metrics"). */
export const STARTING: Readiness = Object.freeze({ ready: false, cause: 'starting', reason: 'the server is opening its store' });

/**
 * Where `GET /readyz` reads whether this server can serve correct data now. The serve code
 * owns it: it says `starting` until a store is attached, what the start-up waits for
 * (`waiting`: a database not up yet, a schema newer than this build; src/server/store-wait.ts),
 * and may say something of its own at any time (`hold`, e.g. while it reconnects); once a store
 * is attached and nothing is held, the store answers (ApiStore.readiness,
 * src/server/store/readiness.ts). A store's answer is kept for READINESS_CACHE_MS and
 * concurrent polls share one question, so a database store's query runs at most about once a
 * second whatever the number of balancers.
 */
export class ReadinessGate {
  private held: Readiness | undefined = STARTING;
  /** The hold `waiting` set: cleared by attach, as `starting` is. */
  private startup: Readiness | undefined = STARTING;
  private store: Pick<ApiStore, 'readiness'> | undefined;
  private cached: { at: number; answer: Promise<Readiness> } | undefined;
  private waitingNow = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * The first attempt to open the store failed and the start-up waits (store-wait.ts): requests
   * are answered 503 with the cause at once (serve.ts) rather than held. During the first
   * attempt (a JSON file opens in milliseconds) they wait for the store instead.
   */
  get refusing(): boolean {
    return this.waitingNow;
  }

  /** The start-up is waiting, for `cause` (`starting`, `schema_newer`): said until a store is attached. */
  waiting(cause: UnavailableCause, reason: string): void {
    if (this.store) return;
    this.startup = { ready: false, cause, reason };
    this.held = this.startup;
    this.waitingNow = true;
  }

  /** The store to ask from now on; clears `starting` and what the start-up waited for. */
  attach(store: Pick<ApiStore, 'readiness'>): void {
    this.store = store;
    this.cached = undefined;
    this.waitingNow = false;
    if (this.held === this.startup) this.held = undefined;
    this.startup = undefined;
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
