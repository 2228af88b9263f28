import { fileURLToPath } from 'node:url';
import { installedDocs } from '../startup/installed-docs.js';

/** package.json "homepage" (test/e2e/package-manifest.test.ts checks they agree): the docs a user can open from anywhere. */
export const HOMEPAGE = 'https://github.com/cr-cli/cr#readme';

/** The docs folder beside the running code (src/startup/installed-docs.ts); none when it is no file (the single executable). */
function docsHere(): string | undefined {
  try {
    return installedDocs(fileURLToPath(new URL('.', import.meta.url)));
  } catch {
    return undefined;
  }
}

/** The root help's last lines: where the docs are, as a URL and as files on this machine. */
export function docsFooter(): string {
  const dir = docsHere();
  const local = dir ? `\nOn this machine: ${dir} (commands.md, output.md, exit-codes.md)` : '';
  return `Docs: ${HOMEPAGE} (every command: docs/commands.md there)${local}`;
}
