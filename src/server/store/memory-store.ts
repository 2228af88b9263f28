import { copyRecords } from './copy-records.js';
import { applyChecked, checkBatch, positionOf } from './batch.js';
import type { IdIndex, Mutation } from './batch.js';
import { emptyStore } from './collections.js';
import type { CollectionName, RecordOf, StoreData } from './schema.js';
import { StoreUnavailableError } from './errors.js';
import type { ApiStore, RateWindow } from './api-store.js';
import { DataReads } from './data-reads.js';
import type { RecordSource } from './data-reads.js';
import { RateWindows } from './rate-windows.js';
import { READY, type Readiness } from './readiness.js';

/** The records of a memory store, and the commit that changes them at once. */
class MemoryRecords implements RecordSource {
  generation = 0;
  private readonly indexes = new Map<CollectionName, IdIndex>();
  constructor(readonly data: StoreData) {}

  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[] {
    return this.data[collection] as unknown as readonly RecordOf<C>[];
  }
  get<C extends CollectionName>(collection: C, id: string): RecordOf<C> | undefined {
    const i = positionOf(this.data, this.indexes, collection, id);
    return i === undefined ? undefined : (this.data[collection][i] as unknown as RecordOf<C>);
  }
  apply(mutations: Mutation[]) {
    const failure = checkBatch(this.data, this.indexes, [mutations]).get(0);
    if (failure) throw failure;
    applyChecked(this.data, this.indexes, [mutations]);
    this.generation++;
  }
}

/**
 * A store in memory only (api-store.ts): nothing is written anywhere, and closing it loses
 * everything. For tests that need the whole pipeline fast, without a file, a lock or a journal.
 */
export class MemoryStore extends DataReads implements ApiStore {
  /** Which kind of store this is, among those open-store.ts opens. */
  readonly kind = 'memory';
  readonly location = '(memory)';
  private readonly records: MemoryRecords;
  private readonly rate = new RateWindows();
  private closed = false;

  /** A store holding a copy of `data` (default: empty). */
  constructor(data: StoreData = emptyStore()) {
    const records = new MemoryRecords(copyRecords(data));
    super(records);
    this.records = records;
  }

  get version(): number {
    return this.records.generation;
  }

  async commit(mutations: Mutation[]): Promise<void> {
    if (this.closed) throw new StoreUnavailableError({ cause: new Error('store closed') });
    // A copy, as a durable store keeps its own: the caller's objects stay the caller's.
    this.records.apply(copyRecords(mutations));
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

  async readiness(): Promise<Readiness> {
    return READY;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
