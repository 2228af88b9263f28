import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeWhole } from './write-whole.js';

/**
 * Help without the CLI bundle. The build renders every help page with the built CLI itself
 * (scripts/help-pages.mjs: `cr PATH --help` and `cr help TOPIC`, standard output a pipe) into
 * dist/bundle/help/; the launcher prints the page a help request names, as the bundle would,
 * without reading, compiling and running 1 MB of JavaScript (docs/benchmarks-analysis.md,
 * "Start-up"): `cr --help` costs what `cr --version` does.
 *
 * Only where a page is exactly what the bundle prints: standard output not a terminal
 * (commander wraps at the terminal's width there, at 80 columns anywhere else, which is how
 * the pages were made; CR_FORCE_TTY does not change help), and only the plain
 * forms: `cr`, `cr --help`/`-h`, `cr help`, `cr PATH… --help`/`-h` and `cr help PATH…|TOPIC`
 * with every word a command's own name (no alias, no option, no operand). Anything else, or
 * a page that is not there, goes to the bundle. test/e2e/help-pages.test.ts compares every
 * page with the bundle's output byte for byte.
 */

/** The root page's "On this machine: …docs/" is written by the build as this marker. */
export const DOCS_MARKER = '\u0000DOCS\u0000';

/**
 * A command's page: `cr.` and its path's words joined by dots (`cr.txt` for `cr` itself). A
 * topic's: `topic.NAME.txt`. No command word reads as another page's name this way.
 */
export function pageName(words: readonly string[]): string {
  return `${['cr', ...words].join('.')}.txt`;
}

export const topicPageName = (topic: string): string => `topic.${topic}.txt`;

/**
 * The pages a help request may be answered from, in order (`cr help environment` is a topic,
 * `cr help finance` a command), or none when argv is not one of the plain forms.
 */
export function helpRequestPages(argv: readonly string[]): string[] {
  const last = argv[argv.length - 1];
  const words = argv[0] === 'help' ? argv.slice(1) : last === '--help' || last === '-h' ? argv.slice(0, -1) : argv.length === 0 ? [] : undefined;
  // Command names are lower-case words; anything else (an option, an id, a path) is for the bundle.
  if (!words || !words.every((w) => /^[a-z][a-z0-9-]*$/.test(w))) return [];
  return argv[0] === 'help' && words.length === 1 ? [topicPageName(words[0]!), pageName(words)] : [pageName(words)];
}

/**
 * Prints the first of `pages` (helpRequestPages) found in `dir` (dist/bundle/help) and says
 * whether it did; the caller has checked that standard output is not a terminal. `docs` is
 * the installed docs folder (with its trailing slash) or undefined when there is none.
 */
export function answerHelp(pages: readonly string[], dir: string, docs: string | undefined): boolean {
  for (const name of pages) {
    let page: string;
    try {
      page = readFileSync(join(dir, name), 'utf8');
    } catch {
      continue;
    }
    // Every page has its usage line: an empty one is damage, for the bundle to answer.
    if (page === '') continue;
    // The bundle says where the docs are only when they are installed (src/cli/help-docs.ts).
    writeWhole(docs ? page.replace(DOCS_MARKER, () => docs) : withoutDocsLine(page));
    return true;
  }
  return false;
}

/** The page without its "On this machine: …" line (no docs folder installed). */
function withoutDocsLine(page: string): string {
  const at = page.indexOf(DOCS_MARKER);
  if (at < 0) return page;
  const start = page.lastIndexOf('\n', at);
  const end = page.indexOf('\n', at);
  return page.slice(0, start) + (end < 0 ? '' : page.slice(end));
}
