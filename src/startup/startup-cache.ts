/**
 * What the launcher that ran this process says about its start-up cache. The launcher and the
 * CLI are two bundles (dist/bundle/launch.cjs and cli.js, or the single executable's entry),
 * so they share no module: the launcher leaves this record on `globalThis.__crStartupCache`
 * before it runs the CLI (src/startup/run-bundle.ts, src/startup/sea-main.ts), and `cr version` reads it.
 * A launcher that adds another kind of cache (Node's module compile cache, a per-version
 * code cache) sets the same record with its own `kind`.
 */
export interface StartupCache {
  /** Which cache: `v8-code-cache` (V8 cached data for the bundle), `compile-cache` (node:module's), `none`. */
  kind: string;
  /** Whether this run's code was compiled from the cache. */
  inUse: boolean;
  /** What became of it: `accepted`, `rejected` (another Node or V8 flags), `missing`, `no launcher`… */
  status: string;
  /** The cache's file, folder or embedded asset, when there is one. */
  location?: string;
}

const SLOT = '__crStartupCache';

/** The launcher's side: records the cache this run started from. */
export function setStartupCache(state: StartupCache): void {
  (globalThis as Record<string, unknown>)[SLOT] = state;
}

/** What the launcher recorded; a run that came through no launcher (the sources in tests) says so. */
export function startupCache(): StartupCache {
  const state = (globalThis as Record<string, unknown>)[SLOT] as StartupCache | undefined;
  return state ?? { kind: 'none', inUse: false, status: 'no launcher' };
}

/**
 * The record for V8 cached data handed to a vm.Script: what V8 did with it (src/startup/run-bundle.ts,
 * src/startup/sea-main.ts). No location: the launcher chose to run without a cache.
 */
export function recordCodeCache(location: string | undefined, cachedData: Buffer | undefined, script: { cachedDataRejected?: boolean }): void {
  const status = !location ? 'off' : !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted';
  setStartupCache({ kind: 'v8-code-cache', inUse: status === 'accepted', status, location });
}
