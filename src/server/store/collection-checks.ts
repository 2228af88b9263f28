import { COLLECTION_NAMES } from './collections.js';
import type { CollectionName, StoreData } from './collections.js';
import { recordSchemaOf } from './record-schemas.js';
import { StoreError } from './errors.js';
import { withBackupHint } from './backups.js';
import type { StoreFs } from './fs-layer.js';

/**
 * The records of a store validated one collection at a time, the first time that collection
 * is used (docs/store-format.md "Rules"; `--local`, src/local/embedded.ts): a command pays for
 * the schemas of the collections it reads, not the whole store's. The store is held to the
 * same rules as a whole-file check: a bad record refuses the store with the very StoreError
 * (file, first bad path of the whole file, backup hint) that opening it would have given, and
 * the store writes nothing (Store.commit waits for every collection first), so an invalid file
 * is never rewritten.
 */
export class CollectionChecks {
  /** Collections with records not validated yet. */
  private readonly pending: Set<CollectionName>;
  private readonly running = new Map<CollectionName, Promise<void>>();
  private refusal: Promise<never> | undefined;

  constructor(
    private readonly storePath: string,
    /** The snapshot as read: nothing changes it until every collection is validated (Store.commit). */
    private readonly data: StoreData,
    private readonly fs: StoreFs,
  ) {
    this.pending = new Set(COLLECTION_NAMES.filter((c) => data[c].length > 0));
  }

  /** Whether a collection's records were validated (an empty one needs nothing). */
  done(collection: CollectionName): boolean {
    return !this.pending.has(collection);
  }

  /** Whether every collection was validated. */
  get allDone(): boolean {
    return this.pending.size === 0;
  }

  /**
   * Validates what is still pending of these collections: undefined when nothing is (the
   * caller goes on at once), else a promise that resolves once they are valid, or rejects
   * with the store's StoreError.
   */
  ready(collections: readonly CollectionName[]): Promise<void> | undefined {
    if (this.pending.size === 0) return undefined;
    const todo = collections.filter((c) => this.pending.has(c));
    if (todo.length === 0) return undefined;
    return Promise.all(todo.map((c) => this.check(c))).then(() => undefined);
  }

  /** Validates every collection (before anything is written). */
  all(): Promise<void> | undefined {
    return this.ready(COLLECTION_NAMES);
  }

  private check(collection: CollectionName): Promise<void> {
    let running = this.running.get(collection);
    if (!running) {
      running = (async () => {
        if (this.refusal) return this.refusal;
        const schema = await recordSchemaOf(collection);
        for (const record of this.data[collection]) if (!schema.safeParse(record).success) return this.refuse();
        this.pending.delete(collection);
      })();
      this.running.set(collection, running);
    }
    return running;
  }

  /**
   * The error the whole-file check gives (validate-store.ts: the first bad path of the file, in
   * collection order, and how many more), with the backup hint Store.open adds: the same words
   * whichever collection was used first. Kept, so every later use is refused alike.
   */
  private refuse(): Promise<never> {
    this.refusal ??= (async (): Promise<never> => {
      const { validateStoreObject } = await import('./validate-store.js');
      try {
        validateStoreObject(this.storePath, this.data);
      } catch (err) {
        throw err instanceof StoreError ? await withBackupHint(err, this.storePath, this.fs) : err;
      }
      throw new Error(`${this.storePath}: a record failed its collection's schema, but not the whole store's`);
    })();
    return this.refusal;
  }
}
