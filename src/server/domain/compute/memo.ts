import type { ApiStore, Awaitable } from '../../store/api-store.js';

/**
 * Caches a read's result for the store's current version (bumped by every commit), so
 * repeated reads of unchanged data cost a map lookup instead of a pass over the records.
 * Per store, a bounded number of keys (e.g. owner + today); any commit empties it. A store
 * that others write too (version undefined, src/server/store/api-store.ts) is read every time.
 */
export function memoByGeneration<R>(maxKeys = 64) {
  const caches = new WeakMap<ApiStore, { version: number; results: Map<string, R> }>();
  return (store: ApiStore, key: string, compute: () => Awaitable<R>): Awaitable<R> => {
    const version = store.version;
    if (version === undefined) return compute();
    let cache = caches.get(store);
    if (!cache || cache.version !== version) {
      cache = { version, results: new Map() };
      caches.set(store, cache);
    }
    const hit = cache.results.get(key);
    if (hit !== undefined) return hit;
    const results = cache.results;
    const keep = (value: R): R => {
      // A commit while computing: the value is of the older version, and is not kept.
      if (store.version !== version) return value;
      if (results.size >= maxKeys) results.delete(results.keys().next().value!);
      results.set(key, value);
      return value;
    };
    const value = compute();
    return value instanceof Promise ? value.then(keep) : keep(value);
  };
}
