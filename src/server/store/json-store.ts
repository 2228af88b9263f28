import { copyRecords } from './copy-records.js';
import { Store } from './store.js';
import type { OpenFileOptions } from './store.js';
import type { Mutation } from './batch.js';
import type { ApiStore, RateWindow } from './api-store.js';
import { DataReads } from './data-reads.js';
import type { RecordSource } from './data-reads.js';
import { takenOver } from './errors.js';
import { jsonStoreReadiness } from './json-readiness.js';
import { nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { RateWindows, rateLimitFileOf } from './rate-windows.js';
import type { RateWindowsOptions } from './rate-windows.js';
import type { Readiness } from './readiness.js';

export interface OpenJsonStoreOptions extends OpenFileOptions {
  /**
   * Keep the rate-limit counters in the sidecar beside the store (`<store>.ratelimit.json`,
   * what `cr serve` and --local do); default: in memory only (`cr local keys`, `init`).
   */
  rateSidecar?: boolean;
  /** Real time, for the sidecar's windows (tests). */
  realNow?: RateWindowsOptions['now'];
}

/**
 * The JSON file store (docs/api-decisions.md §7) behind the store interface (api-store.ts):
 * the file, its lock, journal and group commit stay in store.ts and the files beside it;
 * this adds the scoped reads (data-reads.ts) and the rate-limit windows with their sidecar.
 * This process is the file's only writer (its lock says so), so `version` is the store's
 * generation and derived results may be kept until the next commit.
 */
export class JsonStore extends DataReads implements ApiStore {
  /** Which kind of store this is, among those open-store.ts opens. */
  readonly kind = 'file';

  private constructor(
    /** The file store itself, for what only it has (stats, compaction, its path). */
    readonly file: Store,
    private readonly rate: RateWindows,
    /** The file-system layer the store goes through (its free space, for readiness). */
    private readonly fs: StoreFs = nodeFs,
  ) {
    super(ownedReads(file));
  }

  /** Opens (or creates) the store file under its lock (Store.open) and its rate-limit sidecar. */
  static async open(path: string, opts: OpenJsonStoreOptions = {}): Promise<JsonStore> {
    const { rateSidecar, realNow, ...storeOptions } = opts;
    const file = await Store.open(path, storeOptions);
    try {
      const rate = new RateWindows({ file: rateSidecar && file.path ? rateLimitFileOf(file.path) : null, fs: opts.fs, now: realNow });
      return new JsonStore(file, rate, opts.fs);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** A JSON store over an existing file store (tests, and an in-memory Store). */
  static over(file: Store): JsonStore {
    return new JsonStore(file, new RateWindows());
  }

  get location(): string {
    return this.file.path ?? '(memory)';
  }

  get version(): number {
    return this.file.generation;
  }

  /**
   * The store's own copy is taken at once (api-store.ts, as the memory store does): a caller
   * changing its objects later, even before the batch is journaled, changes neither the
   * journal nor what readers see, so memory never parts from the file. Not an async function:
   * the group commit's own promise is returned as it is, without one more promise and the
   * turns of the microtask queue that waiting on it would take, on every durable write.
   */
  commit(mutations: Mutation[]): Promise<void> {
    let copy: Mutation[];
    try {
      copy = copyRecords(mutations);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.file.commit(copy);
  }

  rateHit(keyId: string, now: number, windowMs: number): RateWindow {
    return this.rate.hit(keyId, now, windowMs);
  }

  ratePeek(keyId: string, now: number, windowMs: number): RateWindow | undefined {
    return this.rate.peek(keyId, now, windowMs);
  }

  rateForget(keyIds: readonly string[] | 'all'): void {
    this.rate.forget(keyIds);
  }

  /** The lock still ours, room to write, no recent failed write (json-readiness.ts). */
  readiness(): Promise<Readiness> {
    return jsonStoreReadiness(this.file, this.fs);
  }

  /** Writes the rate-limit counters, flushes and folds the store, and releases its lock. */
  async close(): Promise<void> {
    try {
      // A store taken over: its counters' sidecar is the new holder's now, never overwritten.
      await this.rate.stop(this.file.stillOwned(true));
    } finally {
      await this.file.close();
    }
  }
}

/**
 * The store's records, each read answered only while the store is still this server's
 * (Store.stillOwned: one stat() of the lock while it is unchanged). A server frozen past the
 * lock's staleness, whose store another process took over meanwhile, would otherwise answer
 * from its old memory: stale reads, and a key revoked meanwhile still accepted
 * (docs/reliability.md "The store's lock"). Every request reads the generation first (the
 * key lookup, data-reads.ts), so none is answered without the check.
 */
function ownedReads(file: Store): RecordSource {
  const check = () => {
    if (!file.stillOwned()) throw takenOver();
  };
  return {
    list(collection) {
      check();
      return file.list(collection);
    },
    get(collection, id) {
      check();
      return file.get(collection, id);
    },
    get generation() {
      check();
      return file.generation;
    },
    ready: (collections) => file.ready(collections),
  };
}
