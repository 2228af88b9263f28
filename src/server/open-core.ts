import { resolve } from 'node:path';
import { createOperations } from './app/operations.js';
import { clockFromEnv, realClock } from './domain/clock.js';
import type { OpenStoreOptions } from './store/store.js';
import type { OpenCore, OpenCoreOptions } from './open-core-types.js';
import { JsonStore } from './store/json-store.js';
import { collectLoadGarbage } from './memory.js';
import { RateLimiter } from './app/rate-limit.js';
import { errorSummary, logSafe } from './log-text.js';
import { defaultStorePath, resolveStorePath } from './store/store-path.js';
import { isDatabaseUrl } from '../config/store-url.js';

export type { OpenCore, OpenCoreOptions } from './open-core-types.js';

/**
 * Opens the store (created when missing; refused when invalid or held by another server)
 * and builds the request pipeline over it: key, rate limit, role, validation, scope.
 * `cr serve` puts an HTTP listener in front of it (serve.ts); `--local` calls it in-process
 * (src/local/in-process-dispatcher.ts). Both run the same checks.
 */
export async function openCore(opts: OpenCoreOptions): Promise<OpenCore> {
  if (opts.storePath && isDatabaseUrl(opts.storePath)) {
    const { openDatabaseCore } = await import('./open-db-core.js');
    return openDatabaseCore(opts.storePath, opts);
  }
  // The store's real path: sidecars (rate-limit counters too) sit beside the target of a symlink.
  const storePath = resolveStorePath(resolve(opts.storePath ?? defaultStorePath()), opts.fs);
  const clock = opts.clock ?? clockFromEnv();
  const { notice } = opts;
  const onFoldProblem: OpenStoreOptions['onFoldProblem'] = (e) =>
    notice(
      e.failed
        ? `cr serve: folding the journal into ${logSafe(storePath)} failed (${errorSummary(e.error)}); the journal keeps every write; retrying with backoff`
        : `cr serve: the journal was folded into ${logSafe(storePath)} again after ${e.failures} failed attempt(s)`,
    );
  const maxStoreBytes = opts.maxStoreMb === undefined ? undefined : opts.maxStoreMb * 1024 * 1024;
  const onLockLost = () => {
    notice(
      `cr serve: the lock on ${logSafe(storePath)} was taken over by another process (a server or a cr local command) while this one was not running (stopped or frozen); writes are refused from now on, reads too (503, lock_lost)`,
    );
    opts.onStoreLost?.();
  };
  const now = opts.realClock ?? realClock;
  const store = await JsonStore.open(storePath, {
    ...opts.storeOptions,
    fs: opts.fs,
    maxStoreBytes,
    onFoldProblem,
    onLockLost,
    lockLabel: opts.lockLabel,
    rateSidecar: true,
    realNow: now,
  });
  collectLoadGarbage(storePath, undefined, opts.fs);
  let rateLimiter: RateLimiter;
  try {
    rateLimiter = new RateLimiter({ store, limit: opts.rateLimit, now });
  } catch (err) {
    await store.close();
    throw err;
  }
  const onInternalError = opts.onInternalError ?? ((err: unknown) => notice(`cr serve: internal error: ${errorSummary(err)}`));
  const operations = createOperations({ store, clock, rateLimiter, onInternalError });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= store.close());
  return { storePath, store: store.file, operations, close };
}
