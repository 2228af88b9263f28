import type { Store } from '../store/store.js';

/**
 * Caches a read's result for the store's current generation (bumped by every commit), so
 * repeated reads of unchanged data cost a map lookup instead of a pass over the records.
 * Per store, a bounded number of keys (e.g. owner + today); any commit empties it.
 */
export function memoByGeneration<R>(maxKeys = 64) {
  const caches = new WeakMap<Store, { generation: number; results: Map<string, R> }>();
  return (store: Store, key: string, compute: () => R): R => {
    let cache = caches.get(store);
    if (!cache || cache.generation !== store.generation) {
      cache = { generation: store.generation, results: new Map() };
      caches.set(store, cache);
    }
    const hit = cache.results.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (cache.results.size >= maxKeys) cache.results.delete(cache.results.keys().next().value!);
    cache.results.set(key, value);
    return value;
  };
}
