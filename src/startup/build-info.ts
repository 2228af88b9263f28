import { isSea } from 'node:sea';
import { version } from './version.js';
import { startupCache, type StartupCache } from './startup-cache.js';

/** Written in by the build (scripts/bundle.mjs, scripts/build-sea.mjs); absent when the sources run directly. */
declare const __CR_COMMIT__: string | undefined;
declare const __CR_BUILD_DATE__: string | undefined;

export interface BuildInfo {
  version: string;
  /** `git rev-parse HEAD` of the checkout that was built, or `unknown` (built outside git, or from the sources). */
  commit: string;
  /** When the bundle was built (ISO 8601; SOURCE_DATE_EPOCH when set), or `unknown`. */
  buildDate: string;
  node: string;
  platform: string;
  arch: string;
  /** Whether this run is the single executable (Node's SEA) rather than a Node running bin/cr.js. */
  singleExecutable: boolean;
  startupCache: StartupCache;
}

/** Everything `cr version` reports (docs/commands.md "cr version"). */
export function buildInfo(): BuildInfo {
  return {
    version: version(),
    commit: typeof __CR_COMMIT__ === 'string' ? __CR_COMMIT__ : 'unknown',
    buildDate: typeof __CR_BUILD_DATE__ === 'string' ? __CR_BUILD_DATE__ : 'unknown',
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    singleExecutable: isSea(),
    startupCache: startupCache(),
  };
}
