import type { ApiStore } from '../../src/server/store/api-store.js';

/**
 * A store that answers every call with a promise, as one on another process (a database)
 * does: wraps one that answers at once, so the pipeline's waiting branches run in tests.
 */
export function answeringLater(store: ApiStore): ApiStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          setImmediate(() => {
            try {
              resolve(value.apply(target, args));
            } catch (err) {
              reject(err);
            }
          });
        });
    },
  });
}
