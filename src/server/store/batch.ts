import { COLLECTION_NAMES } from './collections.js';
import type { CollectionName, StoreData } from './schema.js';

/**
 * A change to the store, as data: applying it is pure and separate from persistence, so an
 * append-only journal could record the same mutations and replay them at start.
 */
export type Mutation =
  | { op: 'insert'; collection: CollectionName; record: Record<string, unknown> }
  | { op: 'patch'; collection: CollectionName; id: string; patch: Record<string, unknown> }
  /** Removes the records with these ids (ids the store does not hold are no error). */
  | { op: 'remove'; collection: CollectionName; ids: string[] }
  /**
   * Removes every record of the collection, or those whose scope is `websiteId` (their
   * `websiteId`, else `website_id`: the scope src/server/store-pg/derive.ts files them by).
   * Records need no id for it (nurture sequences have none). `cr local reset` writes both.
   */
  | { op: 'clear'; collection: CollectionName; websiteId?: string };

/** The website a record belongs to, if it names one. */
export const scopeOf = (r: Record<string, unknown>): string | undefined =>
  typeof r.websiteId === 'string' ? r.websiteId : typeof r.website_id === 'string' ? r.website_id : undefined;

const clears = (m: { op: 'clear'; websiteId?: string }, r: Record<string, unknown>) => m.websiteId === undefined || scopeOf(r) === m.websiteId;

export type IdIndex = Map<string, number>;

/**
 * Checks a group commit's writes against `state` without changing anything: which writes
 * cannot apply (a patch of a record that neither exists nor is inserted by an earlier
 * write of the batch). Each write is atomic: a failing write's own inserts do not count
 * for the writes after it.
 */
export function checkBatch(state: StoreData, indexes: Map<CollectionName, IdIndex>, writes: readonly (readonly Mutation[])[]): Map<number, Error> {
  const failures = new Map<number, Error>();
  // What the accepted writes before this one did: records they inserted (the record) or removed (null), and their clears.
  const done = new Map<string, Record<string, unknown> | null>();
  const cleared: Extract<Mutation, { op: 'clear' }>[] = [];
  // Records whose website a patch changed: what a clear by website takes of them is not known here.
  const rescoped = new Set<string>();
  writes.forEach((mutations, w) => {
    const mine = new Map<string, Record<string, unknown> | null>();
    const clearedHere: Extract<Mutation, { op: 'clear' }>[] = [];
    for (const m of mutations) {
      if (m.op === 'insert') {
        if (typeof m.record.id === 'string') mine.set(`${m.collection}\u0000${m.record.id}`, m.record);
      } else if (m.op === 'remove') {
        for (const id of m.ids) mine.set(`${m.collection}\u0000${id}`, null);
      } else if (m.op === 'clear') {
        clearedHere.push(m);
        for (const seen of [done, mine]) {
          for (const [key, r] of seen) if (r && key.startsWith(`${m.collection}\u0000`) && (rescoped.has(key) || clears(m, r))) mine.set(key, null);
        }
      } else {
        const key = `${m.collection}\u0000${m.id}`;
        const seen = mine.has(key) ? mine.get(key) : done.get(key);
        let found = Boolean(seen);
        if (seen === undefined) {
          const i = positionOf(state, indexes, m.collection, m.id);
          const r = i === undefined ? undefined : (state[m.collection][i] as unknown as Record<string, unknown>);
          // A record whose scope a patch of this batch changed counts as cleared by any clear of its collection (never wrongly kept).
          const gone = (c: Extract<Mutation, { op: 'clear' }>) => c.collection === m.collection && (rescoped.has(key) || clears(c, r!));
          found = r !== undefined && !cleared.some(gone) && !clearedHere.some(gone);
        }
        if (!found) {
          failures.set(w, new Error(`No ${m.collection} record with id ${m.id}`));
          return;
        }
        if ('websiteId' in m.patch || 'website_id' in m.patch) rescoped.add(key);
      }
    }
    for (const [key, r] of mine) done.set(key, r);
    cleared.push(...clearedHere);
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
      if (m.op === 'remove' || m.op === 'clear') {
        const ids = m.op === 'remove' ? new Set(m.ids) : undefined;
        removeWhere(list, (r) => (ids ? typeof r.id === 'string' && ids.has(r.id) : clears(m as Extract<Mutation, { op: 'clear' }>, r)));
        indexes.delete(m.collection); // positions moved: rebuilt on next use
      } else if (m.op === 'insert') {
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

/** Removes the records `gone` picks, in place (readers hold the list itself), keeping the order of the rest. */
function removeWhere(list: Record<string, unknown>[], gone: (r: Record<string, unknown>) => boolean): void {
  let kept = 0;
  for (const r of list) if (!gone(r)) list[kept++] = r;
  list.length = kept;
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

const MUTATION_OPS = new Set(['insert', 'patch', 'remove', 'clear']);

/** Whether a journaled value is a well-formed mutation (replay checks before applying). */
export function checkMutation(m: unknown): m is Mutation {
  if (!m || typeof m !== 'object') return false;
  const x = m as Record<string, unknown>;
  if (!MUTATION_OPS.has(x.op as string) || typeof x.collection !== 'string' || !(COLLECTION_NAMES as readonly string[]).includes(x.collection)) return false;
  if (x.op === 'insert') return !!x.record && typeof x.record === 'object' && !Array.isArray(x.record);
  if (x.op === 'remove') return Array.isArray(x.ids) && x.ids.every((id) => typeof id === 'string');
  if (x.op === 'clear') return x.websiteId === undefined || typeof x.websiteId === 'string';
  return typeof x.id === 'string' && !!x.patch && typeof x.patch === 'object' && !Array.isArray(x.patch);
}
