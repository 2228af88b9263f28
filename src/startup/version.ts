import { readFileSync } from 'node:fs';

/** The package version, written in by the build (scripts/bundle.mjs); absent from sources. */
declare const __CR_VERSION__: string | undefined;

let cached: string | undefined;

/**
 * The package version: the constant the build wrote into the bundles, else (the sources
 * run directly, in tests) read once from package.json: two folders up from the sources
 * (src/startup), three from the built code (dist/src/startup).
 */
export function version(): string {
  if (typeof __CR_VERSION__ === 'string') return __CR_VERSION__;
  if (!cached) {
    for (const rel of ['../../package.json', '../../../package.json']) {
      try {
        const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version: string };
        // Three folders up from the sources is outside the project: only cr's own file counts.
        if (pkg.name !== 'cr-cli') continue;
        cached = pkg.version;
        break;
      } catch {
        /* not this layout: try the next */
      }
    }
    if (!cached) throw new Error('cr: package.json not found beside the installed code');
  }
  return cached;
}

/**
 * Answers `cr --version` / `cr -V` (the whole command line) and says whether it did. The
 * launcher asks first, so the common case never loads the CLI; `run()` asks too, for runs
 * that do not come through the launcher (tests in-process). With other arguments around
 * it, commander's own --version answers, with the same version().
 */
export function answerVersion(argv: readonly string[], out: { write(text: string): unknown }): boolean {
  if (argv.length !== 1 || (argv[0] !== '--version' && argv[0] !== '-V')) return false;
  out.write(version() + '\n');
  return true;
}

export const userAgent = () => `cr/${version()} node/${process.versions.node}`;
