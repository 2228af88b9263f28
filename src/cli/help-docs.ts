import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** package.json "homepage" (test/e2e/package-manifest.test.ts checks they agree): the docs a user can open from anywhere. */
export const HOMEPAGE = 'https://github.com/cr-cli/cr#readme';

/**
 * The docs folder installed with cr, when there is one: beside the bundle (dist/bundle → ../../docs)
 * or the built or source code (dist/src, src). None in the single executable.
 */
function installedDocs(): string | undefined {
  for (const rel of ['../../docs/', '../docs/']) {
    try {
      const dir = fileURLToPath(new URL(rel, import.meta.url));
      if (existsSync(`${dir}commands.md`)) return dir;
    } catch {
      /* not a file: URL (the single executable) */
    }
  }
  return undefined;
}

/** The root help's last lines: where the docs are, as a URL and as files on this machine. */
export function docsFooter(): string {
  const dir = installedDocs();
  const local = dir ? `\nOn this machine: ${dir} (commands.md, output.md, exit-codes.md)` : '';
  return `Docs: ${HOMEPAGE} (every command: docs/commands.md there)${local}`;
}
