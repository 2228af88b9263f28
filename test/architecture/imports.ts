import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every .ts file under the given folders of the repository, as paths relative to it. */
export function sourceFiles(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, type-only ones
// included: a circle through types still ties the modules' design together.
const SPECIFIER = /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?|\bexport\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+)?from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

/** The module specifiers a file imports (comments are stripped first). */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!);
}

/** Relative imports of `file` resolved to repository paths of .ts sources (`./cli.js` imported from src/main.ts → `src/cli.ts`). */
export function localImportsOf(file: string): string[] {
  return importsOf(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'));
}
