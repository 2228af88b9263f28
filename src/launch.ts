import { version } from './version.js';

/** The package version, written in by the build (scripts/bundle.mjs); absent from sources. */
declare const __CR_VERSION__: string | undefined;

/**
 * What bin/cr.js runs (built to dist/bundle/launch.cjs). It answers `--version` by itself,
 * with the version the build wrote in (no file read); anything else runs the CLI bundle
 * (run-bundle.ts).
 */
export function launch(argv: string[] = process.argv.slice(2)): void {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write((typeof __CR_VERSION__ === 'string' ? __CR_VERSION__ : version()) + '\n');
    return;
  }
  void import('./run-bundle.js').then(({ runBundle }) => runBundle());
}
