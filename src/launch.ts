import { version } from './version.js';

/**
 * What bin/cr.js runs (built to dist/bundle/launch.cjs). It answers `--version` by itself,
 * with nothing but package.json read; anything else runs the CLI bundle (run-bundle.ts).
 */
export function launch(argv: string[] = process.argv.slice(2)): void {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(version() + '\n');
    return;
  }
  void import('./run-bundle.js').then(({ runBundle }) => runBundle());
}
