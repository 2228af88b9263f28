import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The docs folder installed with cr, with its trailing slash, when there is one near `dir`
 * (the folder of the running code): two folders up from the bundle (dist/bundle) or the
 * sources (src/cli), one up from the built code's other layouts. None in the single
 * executable. The launcher's help pages (help-pages.ts) and the bundle's root help
 * (src/cli/help-docs.ts) name the same folder through it.
 */
export function installedDocs(dir: string): string | undefined {
  for (const rel of ['../../docs', '../docs']) {
    const docs = `${resolve(dir, rel)}/`;
    if (existsSync(`${docs}commands.md`)) return docs;
  }
  return undefined;
}
