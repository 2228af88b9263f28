import { dirname } from 'node:path';
import { emptyStore } from './collections.js';
import type { CollectionName, RecordOf, StoreData } from './collections.js';
import { atomicWrite, isCode, nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { snapshotId } from './journal.js';
import { acquireLock, type LockHandle, type LockOptions } from './lock.js';
import { resolveStorePath } from './store-path.js';
import { positionOf } from './batch.js';
import type { IdIndex, Mutation } from './batch.js';
import { hasStoreFrame, sealedSnapshot, storeBytesObject, storeDataOf } from './snapshot.js';
import { CollectionChecks } from './collection-checks.js';
import { recoverJournal } from './replay.js';
import type { JournalState } from './replay.js';
import { removeStaleTemps, withBackupHint } from './backups.js';
import { GroupCommit } from './commit.js';
import type { CommitOptions, StoreStats } from './commit.js';
import { StoreError } from './errors.js';

// What the server and the CLI use of the store, from one module; each concern has its own
// file beside this one in src/server/store/ (docs/store-format.md, "Durability"). A whole
// file's validation (parseStoreText, parseStoreBuffer) is validate-store.ts's: it loads every
// collection's schemas, so it is not exported from here.
export { StoreError, StoreFullError, StoreUnavailableError } from './errors.js';
export { StoreLockedError } from './lock.js';
export { serialize } from './snapshot.js';
export { applyChecked, checkBatch } from './batch.js';
export type { Mutation } from './batch.js';
export type { StoreStats } from './commit.js';
export { DEFAULT_MAX_STORE_BYTES } from './commit.js';

export interface OpenFileOptions extends CommitOptions {
  /** Every file-system call of the store goes through it (tests inject faults). */
  fs?: StoreFs;
  /** Take the single-writer lock (default true). */
  lock?: boolean;
  /** What takes the lock, in words ("cr serve"), so a refused process can say who holds it. */
  lockLabel?: string;
  /** Content of a store file that does not exist yet (default: empty store). */
  initial?: () => StoreData | Promise<StoreData>;
  /**
   * The lock was lost while held (this process was frozen past the lock's staleness and
   * another server took the store over, lock.ts): the store has stopped writing (503s).
   */
  onLockLost?: () => void;
  /** The lock's heartbeat period and staleness (lock.ts; tests shorten them). */
  lockTiming?: Pick<LockOptions, 'heartbeatMs' | 'staleMs'>;
  /**
   * When the records are validated: `open` (default), the whole file before the store opens;
   * `first-use`, each collection the first time it is read or written (collection-checks.ts;
   * what --local does, so that a command loads only the schemas it uses). Either way a bad
   * record refuses the store with the same StoreError, and an invalid file is never rewritten.
   */
  validation?: 'open' | 'first-use';
}

/**
 * The JSON file store (docs/api-decisions.md §7). Readers see the last committed state only; writes
 * go through the group commit (commit.ts), which applies them in place once durable.
 */
export class Store {
  private readonly state: StoreData;
  /** The collections still to validate (first-use validation); undefined when every record was validated at open. */
  private readonly checks: CollectionChecks | undefined;
  private readonly indexes = new Map<CollectionName, IdIndex>();
  private readonly writer: GroupCommit;
  private releaseLock: (() => void) | null;
  /** The lock as taken (null: none, a memory store), and whether it was found lost (for good). */
  private readonly lock: LockHandle | null;
  private readonly lockState: { lost: boolean; onLost: () => void };

  private constructor(
    readonly path: string | null,
    data: StoreData,
    fs: StoreFs,
    release: LockHandle | null,
    j: ConstructorParameters<typeof GroupCommit>[4],
    opts: CommitOptions,
    lockState: { lost: boolean; onLost: () => void },
    checks: CollectionChecks | undefined,
  ) {
    this.state = data;
    this.checks = checks?.allDone ? undefined : checks;
    this.releaseLock = release;
    this.lock = release;
    this.lockState = lockState;
    this.writer = new GroupCommit(this.state, this.indexes, path, fs, j, opts);
  }

  /**
   * Whether the store is still this process's: its lock file still holds this server's token
   * (lock.ts ownedForReads: nothing read while its heartbeat is recent, else one stat() while
   * the file is unchanged, lock-check.ts). Asked before a read is answered
   * (json-store.ts): a server frozen past the lock's staleness whose store was taken over must
   * not answer from its old memory (docs/reliability.md "The store's lock"). A loss found here
   * is told as the heartbeat tells it (onLockLost, once); false from then on. `verify`: read
   * the lock now whatever the heartbeat (readiness, json-readiness.ts).
   */
  stillOwned(verify = false): boolean {
    if (this.lockState.lost) return false;
    if (this.lock === null || (verify ? this.lock.owned() : this.lock.ownedForReads())) return true;
    this.lockState.onLost();
    return false;
  }

  /**
   * Opens (or creates) the store: lock, read and validate the snapshot, replay the journal.
   * A missing file is created durably; an empty, corrupt or invalid one is left untouched
   * and StoreError is thrown (naming the newest valid backup); so is a journal with a
   * damaged line in the middle, or with writes that belong to another snapshot.
   */
  static async open(given: string, opts: OpenFileOptions = {}): Promise<Store> {
    const fs = opts.fs ?? nodeFs;
    // Two paths to one file are one store: lock, journal, backups and temps sit beside the target.
    const path = resolveStorePath(given, fs);
    let opened: Store | undefined;
    const lockState = { lost: false, onLost: () => onLost() };
    const onLost = () => {
      if (lockState.lost) return;
      lockState.lost = true;
      // Another server writes this file now: write nothing more, not even a fold on close.
      void opened?.writer.abandon().catch(() => undefined);
      opts.onLockLost?.();
    };
    const release = opts.lock === false ? null : acquireLock(path, fs, { ...opts.lockTiming, onLost, label: opts.lockLabel });
    let fsyncs = 0;
    const onSync = () => void fsyncs++;
    try {
      let data: StoreData;
      let bytes: Buffer | undefined;
      try {
        bytes = await fs.readFile(path);
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw new StoreError(path, `cannot read (${(err as Error).message})`, { cause: err });
      }
      if (bytes === undefined) {
        data = opts.initial ? await opts.initial() : emptyStore();
        await fs.mkdir(dirname(path), { recursive: true });
        bytes = sealedSnapshot(data);
        await atomicWrite(fs, path, bytes, { sync: true, onSync });
      }
      let checks: CollectionChecks | undefined;
      try {
        const raw = storeBytesObject(path, bytes);
        if (opts.validation === 'first-use' && hasStoreFrame(raw)) {
          data = storeDataOf(raw);
          checks = new CollectionChecks(path, data, fs);
        } else {
          data = (await import('./validate-store.js')).validateStoreObject(path, raw);
        }
      } catch (err) {
        throw err instanceof StoreError ? await withBackupHint(err, path, fs) : err;
      }
      const base = snapshotId(bytes);
      const snapshotBytes = bytes.length;
      bytes = undefined;
      if (release) await removeStaleTemps(fs, path);
      let j: JournalState;
      try {
        // Records are validated over the snapshot as read, before a journaled write changes them.
        j = await recoverJournal(fs, path, data, base, onSync, () => checks?.all());
      } catch (err) {
        // A bad record of the snapshot is what opening the store says first, as a whole-file check would.
        await checks?.all();
        throw err;
      }
      const ownership = release ? { owned: () => release.owned(), lost: onLost } : undefined;
      opened = new Store(path, data, fs, release, { ...j, fsyncs, snapshotBytes }, { ...opts, ownership }, lockState, checks);
      if (lockState.lost) void opened.writer.abandon().catch(() => undefined);
      return opened;
    } catch (err) {
      release?.();
      throw err;
    }
  }

  /** The committed snapshot. Treat as read-only. */
  get data(): Readonly<StoreData> {
    if (this.checks && !this.checks.allDone) throw new Error('the store read whole before its records were validated (Store.ready)');
    return this.state;
  }

  /** Number of commits since open; derived caches key on it. */
  get generation(): number {
    return this.writer.generation;
  }

  /** Number of durable group commits (for tests and benchmarks). */
  get commits(): number {
    return this.writer.commits;
  }

  /**
   * Validates what is still pending of these collections (first-use validation): undefined
   * when nothing is, else a promise that rejects with StoreError when a record is bad. Asked
   * before they are read (json-store.ts).
   */
  ready(collections: readonly CollectionName[]): Promise<void> | undefined {
    return this.checks?.ready(collections);
  }

  /** Refuses to hand out records not validated yet: a read that did not ask ready() first is a bug. */
  private checked(collection: CollectionName): void {
    if (this.checks && !this.checks.done(collection)) throw new Error(`${collection} read before its records were validated (Store.ready)`);
  }

  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[] {
    this.checked(collection);
    return this.state[collection] as unknown as readonly RecordOf<C>[];
  }

  /** Lookup by id through a lazily built index. */
  get<C extends CollectionName>(collection: C, id: string): RecordOf<C> | undefined {
    this.checked(collection);
    const i = positionOf(this.state, this.indexes, collection, id);
    return i === undefined ? undefined : (this.state[collection][i] as unknown as RecordOf<C>);
  }

  /** The store's size as its cap sees it (snapshot bytes + journal bytes since; docs/api-decisions.md §9). */
  sizeEstimate(): number {
    return this.writer.sizeEstimate();
  }

  /** Counters for tests and benchmarks. */
  stats(): StoreStats {
    return this.writer.stats();
  }

  /**
   * Queues mutations; resolves once they are durable (shared commit with concurrent writers).
   * Nothing is written before every record is validated: a store with a bad record is never
   * rewritten, whichever collection the write is for.
   */
  commit(mutations: Mutation[]): Promise<void> {
    const validating = this.checks?.all();
    return validating ? validating.then(() => this.writer.commit(mutations)) : this.writer.commit(mutations);
  }

  /** Waits until every queued write is committed (or failed). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Folds the journal into the snapshot now (and waits for it); a failure leaves the journal in charge. */
  async compact(): Promise<void> {
    await this.checks?.all();
    return this.writer.compact();
  }

  /**
   * Drops the store the way a crash would (tests): no flush, no fold, nothing more written
   * once the write in progress ends; the journal handle is closed and the lock released.
   */
  async abandon(): Promise<void> {
    try {
      await this.writer.abandon();
    } finally {
      this.unlock();
    }
  }

  /** Flushes, folds the journal into the snapshot, closes the journal and releases the lock. */
  async close(): Promise<void> {
    try {
      await this.writer.close();
    } finally {
      this.unlock();
    }
  }

  private unlock() {
    this.releaseLock?.();
    this.releaseLock = null;
  }
}
