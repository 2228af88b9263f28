import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.js';

/**
 * Every repository path that a doc or a code comment cites exists (CONTRIBUTING.md, "Code
 * habits": comments cite the project's docs). A file that moves takes its citations with it.
 *
 * Cited paths are the tokens that start with a folder of the repository (`src/…`, `test/…`,
 * `docs/…`…), bare Markdown file names (found at the root, in docs/ or beside the citing file),
 * and, in Markdown, relative link targets. A `*` in the last segment is a glob: something must
 * match it. Build output (`dist/`) and paths a command creates at run time are not cited here.
 */

const DOC_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  'test/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const CODE_DIRS = ['src', 'commands', 'scripts', 'test', 'bench', 'bin'];
const CODE_EXT = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

function codeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(join(ROOT, dir))) return;
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'fixtures') walk(p);
      } else if (CODE_EXT.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of CODE_DIRS) walk(d);
  return out.sort();
}

/** The comments of a source file, found by the TypeScript parser (never text inside strings). */
function commentsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const kind = /\.(?:js|mjs|cjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const out: string[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push(text.slice(r.pos, r.end));
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.forEachChild(visit);
  };
  take(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return out;
}

// A path from the repository's root: one of its folders, then segments of path characters.
const ROOTED = /(?<![\w./-])(?:\.ci|src|commands|scripts|test|docs|bench|bin)\/[\w.*/-]*[\w*/]/g;
// A bare Markdown file name, not part of a longer path or URL.
const BARE_MD = /(?<![\w./-])[\w-]+\.md\b(?![\w/-])/g;
// A Markdown link target: [text](target) or [text](target "title").
const MD_LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

function exists(path: string): boolean {
  const clean = normalize(path.replace(/\/$/, ''));
  if (!clean.includes('*')) return existsSync(join(ROOT, clean));
  const dir = dirname(clean);
  if (dir.includes('*') || !existsSync(join(ROOT, dir))) return false;
  const glob = new RegExp(
    `^${clean
      .slice(dir.length + 1)
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  );
  return readdirSync(join(ROOT, dir)).some((f) => glob.test(f));
}

/** `file`'s citations that name nothing in the repository. */
function missing(file: string, texts: string[], markdown: boolean): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(ROOTED)) {
      const p = m[0].replace(/[.]+$/, '');
      // A doc in a folder may cite from there (test/README.md names the folders of test/).
      if (!exists(p) && !(markdown && exists(join(dirname(file), p)))) out.add(p);
    }
    for (const m of text.matchAll(BARE_MD)) {
      const name = m[0];
      if (![name, `docs/${name}`, join(dirname(file), name)].some(exists)) out.add(name);
    }
    if (!markdown) continue;
    for (const m of text.matchAll(MD_LINK)) {
      const target = m[1]!.split('#')[0]!;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      const p = relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(target)));
      if (!exists(p)) out.add(target);
    }
  }
  return [...out].map((p) => `${file}: ${p}`);
}

describe('cited paths', () => {
  it('every repository path a doc cites exists', () => {
    const bad = DOC_FILES.flatMap((f) => missing(f, [readFileSync(join(ROOT, f), 'utf8')], true));
    expect(bad).toEqual([]);
  });

  it('every repository path a code comment cites exists', () => {
    const bad = codeFiles().flatMap((f) => missing(f, commentsOf(f), false));
    expect(bad).toEqual([]);
  });

  it('finds a stale citation (the check can fail)', () => {
    expect(missing('src/x.ts', ['// see test/core/startup.test.ts and DESIGN.md, src/server/*.ts'], false)).toEqual(['src/x.ts: test/core/startup.test.ts', 'src/x.ts: DESIGN.md']);
    expect(missing('docs/x.md', ['[a](store-format.md#where) [b](../README.md) [c](gone.md)'], true)).toEqual(['docs/x.md: gone.md']);
  });
});
