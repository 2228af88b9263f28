import { answerVersion } from './version.js';

/**
 * What bin/cr.js runs (built to dist/bundle/launch.cjs). It answers `--version` by itself,
 * with the version the build wrote in (no file read); anything else runs the CLI bundle
 * (run-bundle.ts).
 */
export function launch(argv: string[] = process.argv.slice(2)): void {
  if (answerVersion(argv, process.stdout)) return;
  void import('./run-bundle.js').then(({ runBundle }) => runBundle());
}
