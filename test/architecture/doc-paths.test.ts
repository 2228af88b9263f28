import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.js';

/**
 * Every repository path that a doc or a code comment cites exists (CONTRIBUTING.md, "Code
 * habits": comments cite the project's docs). A file that moves takes its citations with it.
 *
 * Read: every Markdown file and every code file's comments, in any folder of the repository
 * (tests included; not node_modules, dist, .git, nor test fixtures). Cited paths are the tokens
 * with a slash that start with a top folder of the repository (`src/…`, `.ci/…`, any folder
 * there is) or end in a source or doc file name (a citation of a folder the repository does not
 * have is as dangling as a missing file); a path may also be relative to the citing file's
 * folder. Then bare Markdown file names (found at the root, in docs/ or beside the citing file),
 * and, in Markdown, relative link targets. A `*` in the last segment is a glob: something must match it. Build output (`dist/`),
 * a dependency's own files (found under node_modules) and paths a command creates at run time
 * are not citations of the repository.
 */

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'fixtures']);
const CODE_EXT = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** The repository's files whose name passes `keep`, from the root, in every folder but SKIP_DIRS. */
function repoFiles(keep: (name: string) => boolean, dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) => {
      const p = dir ? join(dir, e.name) : e.name;
      if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : repoFiles(keep, p);
      return keep(e.name) ? [p] : [];
    })
    .sort();
}

const DOC_FILES = repoFiles((f) => f.endsWith('.md'));
const codeFiles = () => repoFiles((f) => CODE_EXT.test(f) && !f.endsWith('.d.ts'));
const TOP_FOLDERS = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !SKIP_DIRS.has(e.name))
    .map((e) => e.name),
);
const PACKAGES = readdirSync(join(ROOT, 'node_modules')).flatMap((n) => (n.startsWith('@') ? readdirSync(join(ROOT, 'node_modules', n)).map((m) => `${n}/${m}`) : [n]));

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

// A token with a slash, not inside a longer path, URL, package name (`@scope/…`) or `~/…`.
const PATHISH = /(?<![\w./@~$:-])\.?[\w-]+(?:\.[\w-]+)*\/[\w.*/-]*[\w*]/g;
// What a file the repository could hold is called: its sources and docs.
const FILE_NAME = /\.(?:md|ts|mts|cts|js|mjs|cjs|sh)$/;

/** Whether a token cites the repository: it starts with a top folder or names a source or doc file. */
function isCitation(p: string): boolean {
  const first = p.split('/')[0]!;
  if (first === 'dist' || first === 'node_modules') return false;
  return TOP_FOLDERS.has(first) || FILE_NAME.test(p);
}

/** A dependency's own file (`lib/core/util.js` of undici, `undici/lib/…`): not the repository's. */
const inDependency = (p: string) => existsSync(join(ROOT, 'node_modules', p)) || PACKAGES.some((pkg) => existsSync(join(ROOT, 'node_modules', pkg, p)));

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
    for (const m of text.matchAll(PATHISH)) {
      const p = m[0].replace(/[.]+$/, '');
      if (!isCitation(p) || exists(p)) continue;
      // A file in a folder may cite from there (test/README.md names the folders of test/).
      if (exists(join(dirname(file), p))) continue;
      if (!p.includes('*') && inDependency(p)) continue;
      out.add(p);
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
    // Any folder, in or out of the repository; a dependency's file and a MIME type are no citations.
    expect(missing('test/x.test.ts', ['// design/gone.md, compute/memo.ts, .ci/gone, lib/core/util.js, application/json'], false)).toEqual([
      'test/x.test.ts: design/gone.md',
      'test/x.test.ts: compute/memo.ts',
      'test/x.test.ts: .ci/gone',
    ]);
    expect(missing('docs/x.md', ['[a](store-format.md#where) [b](../README.md) [c](gone.md)'], true)).toEqual(['docs/x.md: gone.md']);
  });
});
