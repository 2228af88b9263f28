import { COLLECTION_NAMES } from './schema.js';
import type { CollectionName, StoreData } from './schema.js';

/**
 * A change to the store, as data: applying it is pure and separate from persistence, so an
 * append-only journal could record the same mutations and replay them at start.
 */
export type Mutation =
  | { op: 'insert'; collection: CollectionName; record: Record<string, unknown> }
  | { op: 'patch'; collection: CollectionName; id: string; patch: Record<string, unknown> };

export type IdIndex = Map<string, number>;

/**
 * Checks a group commit's writes against `state` without changing anything: which writes
 * cannot apply (a patch of a record that neither exists nor is inserted by an earlier
 * write of the batch). Each write is atomic: a failing write's own inserts do not count
 * for the writes after it.
 */
export function checkBatch(state: StoreData, indexes: Map<CollectionName, IdIndex>, writes: readonly (readonly Mutation[])[]): Map<number, Error> {
  const failures = new Map<number, Error>();
  const added = new Set<string>();
  writes.forEach((mutations, w) => {
    const mine: string[] = [];
    for (const m of mutations) {
      if (m.op === 'insert') {
        if (typeof m.record.id === 'string') mine.push(`${m.collection}\u0000${m.record.id}`);
        continue;
      }
      const key = `${m.collection}\u0000${m.id}`;
      if (added.has(key) || mine.includes(key) || positionOf(state, indexes, m.collection, m.id) !== undefined) continue;
      failures.set(w, new Error(`No ${m.collection} record with id ${m.id}`));
      return;
    }
    for (const key of mine) added.add(key);
  });
  return failures;
}

/**
 * Applies writes that checkBatch accepted, in place, keeping the id indexes current. The
 * store calls it only once the writes are durable, so readers never see an unacknowledged
 * write, and no collection is copied: a commit costs its own writes, whatever the size of
 * the collections it touches.
 */
export function applyChecked(state: StoreData, indexes: Map<CollectionName, IdIndex>, writes: readonly (readonly Mutation[])[]): void {
  for (const mutations of writes) {
    for (const m of mutations) {
      const list = state[m.collection] as unknown as Record<string, unknown>[];
      if (m.op === 'insert') {
        list.push(m.record);
        const index = indexes.get(m.collection);
        const id = m.record.id;
        if (index && typeof id === 'string' && !index.has(id)) index.set(id, list.length - 1);
      } else {
        const i = positionOf(state, indexes, m.collection, m.id);
        if (i === undefined) throw new Error(`No ${m.collection} record with id ${m.id}`); // checkBatch ran first: cannot happen
        list[i] = { ...list[i], ...m.patch };
      }
    }
  }
}

/** Position of a record by id, through the collection's index (built on first use). */
export function positionOf(state: StoreData, indexes: Map<CollectionName, IdIndex>, collection: CollectionName, id: string): number | undefined {
  let index = indexes.get(collection);
  if (!index) {
    index = buildIndex(state[collection]);
    indexes.set(collection, index);
  }
  return index.get(id);
}

function buildIndex(list: readonly unknown[]): IdIndex {
  const index: IdIndex = new Map();
  list.forEach((r, i) => {
    const id = (r as { id?: unknown }).id;
    if (typeof id === 'string' && !index.has(id)) index.set(id, i);
  });
  return index;
}

const MUTATION_OPS = new Set(['insert', 'patch']);

/** Whether a journaled value is a well-formed mutation (replay checks before applying). */
export function checkMutation(m: unknown): m is Mutation {
  if (!m || typeof m !== 'object') return false;
  const x = m as Record<string, unknown>;
  if (!MUTATION_OPS.has(x.op as string) || typeof x.collection !== 'string' || !(COLLECTION_NAMES as string[]).includes(x.collection)) return false;
  if (x.op === 'insert') return !!x.record && typeof x.record === 'object' && !Array.isArray(x.record);
  return typeof x.id === 'string' && !!x.patch && typeof x.patch === 'object' && !Array.isArray(x.patch);
}
