import { setTimeout as sleep } from 'node:timers/promises';
import { StoreLockedError } from '../server/store/lock.js';
import type { Holder } from '../server/store/lock.js';
import { resolveStorePath } from '../server/store/store-path.js';
import { readServeAd } from './serve-ad.js';
import type { ServeAd } from './serve-ad.js';

/**
 * How long a local command waits for a short-lived holder of the store's lock (another
 * `--local` run, a `cr local keys create`) before giving up: such a run holds it for a
 * fraction of a second, so several started at once finish one after another (docs/cli-contract.md
 * "Local mode in CI": several `--local` commands at once on one store all succeed).
 */
export const LOCK_WAIT_MS = 15_000;

/**
 * The wait, with `CR_LOCK_WAIT_MS` (0 to 10 min) in place of the 15 s: a setting for tests,
 * as `CR_LOCK_STALE_MS` is for the lock's staleness (docs/reliability.md "The store's lock"),
 * so a test of giving up does not sit out the default.
 */
export function lockWaitFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.CR_LOCK_WAIT_MS?.trim() ?? '';
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return n <= 600_000 ? n : LOCK_WAIT_MS;
}

export interface LockWaitOptions<T> {
  storePath: string;
  waitMs?: number;
  /** A `cr serve` holds the store: its answer ends the wait. Without it, such a store is refused at once. */
  onServe?: (ad: ServeAd) => Promise<T>;
}

/** What holds the store, in words: `another cr server (pid P, cr serve on port N)`, `a short cr --local run (pid P)`. */
export function describeHolder(holder: Holder, ad?: ServeAd): string {
  if (ad) return `another cr server (pid ${holder.pid}, ${ad.label ?? 'cr serve'} on port ${ad.port})`;
  if (holder.label === 'cr serve') return `another cr server (pid ${holder.pid}, cr serve starting or not answering)`;
  if (holder.label) return `a short ${holder.label} run (pid ${holder.pid})`;
  return `another cr process (pid ${holder.pid})`;
}

/**
 * Where a server over this store advertises itself: beside the store's canonical path, as
 * its lock and journal (a store reached through a symlink is its target, docs/api-decisions.md §9).
 */
export function adStorePath(storePath: string): string {
  try {
    return resolveStorePath(storePath);
  } catch {
    return storePath; // a loop of links: nothing can be served there either
  }
}

/**
 * Runs `attempt` (which opens the store under its lock) and, while a short-lived process
 * holds the lock, tries again with a growing pause up to `waitMs`. A `cr serve` is not
 * short-lived: with `onServe` the command goes to it (src/local/serve-ad.ts), else it is
 * refused at once, naming the server and its port. The liveness of a holder is the lock's
 * own business (src/server/store/lock.ts); this only decides whether to wait.
 */
export async function withStoreLock<T>(attempt: () => Promise<T>, o: LockWaitOptions<T>): Promise<T> {
  const deadline = Date.now() + (o.waitMs ?? LOCK_WAIT_MS);
  let pause = 10;
  for (;;) {
    let held: StoreLockedError;
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof StoreLockedError)) throw err;
      held = err;
    }
    const ad = readServeAd(adStorePath(o.storePath), held.holder.pid);
    if (ad && o.onServe) return o.onServe(ad);
    const serve = Boolean(ad) || held.holder.label === 'cr serve';
    const waitFor = !serve || (o.onServe !== undefined && !ad); // a starting server soon advertises itself
    if (!waitFor || Date.now() >= deadline) {
      const what = describeHolder(held.holder, ad);
      const next = serve
        ? `stop it first (one server per store file)${ad ? `, or send requests to it: --base-url ${ad.url}` : ''}`
        : `it did not finish within ${waitText(o.waitMs ?? LOCK_WAIT_MS)}; try again`;
      throw new StoreLockedError(o.storePath, held.holder, false, `${o.storePath} is in use by ${what}; ${next}`);
    }
    await sleep(pause + Math.floor(Math.random() * pause));
    pause = Math.min(pause * 2, 200);
  }
}

/** A wait in words: whole seconds, or milliseconds under one (CR_LOCK_WAIT_MS=300 is not "0 s"). */
const waitText = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);
