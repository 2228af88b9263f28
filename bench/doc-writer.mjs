/**
 * docs/benchmarks.md is written whole by the benchmark scripts, never by hand: `npm run bench`
 * runs bench/run.mjs (its report) and bench/node-lines.mjs (start-up on each Node line), and
 * `npm run bench:pg` runs bench/pg.mjs (the PostgreSQL store). Each script owns one section and
 * rewrites the page through writeBenchSection: its own section new, dated and naming the build
 * it measured; the other scripts' sections as they last wrote them (each with its own date and
 * build); anything else is dropped. What the figures mean, and the history of how they got
 * there, is docs/benchmarks-analysis.md, written by hand.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** The sections, in the page's order, by the script that writes each. */
export const SECTIONS = { run: 'bench/run.mjs', 'node-lines': 'bench/node-lines.mjs', pg: 'bench/pg.mjs' };

const HEADER = `# Benchmarks

Written by the benchmark scripts (\`npm run bench\`: bench/run.mjs, then bench/node-lines.mjs;
\`npm run bench:pg\`: bench/pg.mjs, through bench/doc-writer.mjs). Do not edit it: re-run them.
Each section says when it was measured and on which build. What the figures mean, what was
tried and what changed them: [benchmarks-analysis.md](benchmarks-analysis.md).`;

const marker = (name) => new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);

/** The commit and date of the build under bin/cr.js (`cr version --json`), and whether the tree has changed since. */
export function measuredBuild(root = ROOT) {
  let build = { commit: 'unknown', buildDate: 'unknown' };
  try {
    build = JSON.parse(
      execFileSync(process.execPath, [join(root, 'bin/cr.js'), 'version', '--json'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }),
    );
  } catch {
    /* no build: said as unknown */
  }
  let changed = false;
  try {
    changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
  } catch {
    /* not a git checkout */
  }
  return { commit: build.commit, buildDate: build.buildDate, changed };
}

/**
 * Rewrites `doc` with `name`'s section set to `body` (Markdown that starts with its `##` heading),
 * followed by when and on what it was measured.
 */
export function writeBenchSection(doc, name, body, build = measuredBuild()) {
  if (!(name in SECTIONS)) throw new Error(`bench/doc-writer.mjs: no section ${name}`);
  const old = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const commit = build.commit === 'unknown' ? 'an unknown commit' : `commit ${build.commit.slice(0, 12)}`;
  const stamp = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by ${SECTIONS[name]}, on the build of ${commit} (built ${build.buildDate})${build.changed ? ' with uncommitted changes in the tree' : ''}.`;
  const sections = Object.keys(SECTIONS).map((n) =>
    n === name ? `<!-- bench:${n} -->\n${body.trim()}\n\n${stamp}\n<!-- /bench:${n} -->` : marker(n).exec(old)?.[0],
  );
  writeFileSync(doc, `${[HEADER, ...sections.filter(Boolean)].join('\n\n')}\n`);
}
