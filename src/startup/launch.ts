import { resolve } from 'node:path';
import { answerHelp, helpRequestPages } from './help-pages.js';
import { installedDocs } from './installed-docs.js';
import { answerVersion } from './version.js';
import { writeWhole } from './write-whole.js';

/**
 * What bin/cr.js runs (built to dist/bundle/launch.cjs). It answers `--version` by itself,
 * with the version the build wrote in (no file read), and help from the pages the build
 * rendered (help-pages.ts) when standard output is not a terminal; anything else runs the
 * CLI bundle (run-bundle.ts).
 */
export function launch(argv: string[] = process.argv.slice(2)): void {
  if (answerVersion(argv, { write: writeWhole })) return;
  const pages = helpRequestPages(argv);
  if (pages.length === 0) {
    runBundle();
    return;
  }
  // node:tty only for a help request: other runs never load it (test/e2e/startup.test.ts).
  void import('node:tty').then(({ isatty }) => {
    if (isatty(1) || !answerHelp(pages, resolve(import.meta.dirname, 'help'), installedDocs(import.meta.dirname))) runBundle();
  });
}

function runBundle(): void {
  void import('./run-bundle.js').then((m) => m.runBundle());
}
