// Renders every help page of the CLI into dist/bundle/help/, for the launcher to print without
// the CLI bundle (src/startup/help-pages.ts; CONTRIBUTING.md, "How cr starts").
//
// Each page is what the built CLI itself prints for `cr PATH --help` (and `cr help TOPIC`) with
// standard output not a terminal: commander wraps at 80 columns then. The one line that
// depends on where cr is installed (the root page's "On this machine: …docs/") is stored as
// a marker the launcher fills in. test/e2e/help-pages.test.ts runs the bundle and the pages
// side by side under another environment and compares them byte for byte.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OUT = 'dist/bundle/help';

const { buildProgram } = await import('../dist/src/cli.js');
const { createContext } = await import('../dist/src/cli/context.js');
const { TOPICS } = await import('../dist/src/cli/help-topics.js');
const { DOCS_MARKER, pageName, topicPageName } = await import('../dist/src/startup/help-pages.js');

/** Every command's path, from the program with all groups loaded (as completion reads it). */
function paths(cmd, path = []) {
  return [path, ...cmd.commands.filter((c) => !c._hidden).flatMap((c) => paths(c, [...path, c.name()]))];
}
const program = await buildProgram(createContext({}), [], true);
const requests = [
  ...paths(program).map((p) => ({ page: pageName(p), argv: [...p, '--help'] })),
  ...Object.keys(TOPICS).map((t) => ({ page: topicPageName(t), argv: ['help', t] })),
];
const names = new Set(requests.map((r) => r.page));
if (names.size !== requests.length) throw new Error('scripts/help-pages.mjs: two help pages would share a file name');

// The pages there now go first: with them the launcher would answer from them, not the bundle.
rmSync(OUT, { recursive: true, force: true });
// A clean environment and a home of its own: nothing of the builder's shell reaches a page.
const home = mkdtempSync(join(tmpdir(), 'cr-help-pages-'));
// Beside the pages' folder (one file system, so the rename below is atomic).
const staging = `${OUT}.tmp`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging);
const docsLine = `On this machine: ${resolve('docs')}/`;
try {
  const env = { PATH: process.env.PATH, HOME: home, CR_CONFIG_DIR: join(home, 'config'), LANG: 'C.UTF-8' };
  // A few at a time: each is a process of its own.
  for (let i = 0; i < requests.length; i += 8) {
    await Promise.all(
      requests.slice(i, i + 8).map(async ({ page, argv }) => {
        const { stdout, stderr } = await run(process.execPath, ['bin/cr.js', ...argv], { env, encoding: 'utf8' });
        if (stderr) throw new Error(`cr ${argv.join(' ')} wrote to stderr: ${stderr}`);
        writeFileSync(join(staging, page), stdout.replaceAll(docsLine, `On this machine: ${DOCS_MARKER}`));
      }),
    );
  }
  // Whole or not at all: the launcher answers only from pages that are all there.
  renameSync(staging, OUT);
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
}
