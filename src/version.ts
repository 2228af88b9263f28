import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The package version, read once from package.json: two folders up from the built code
 * (dist/src, dist/bundle), one folder up when the sources run directly (tests).
 */
export function version(): string {
  if (!cached) {
    for (const rel of ['../../package.json', '../package.json']) {
      try {
        const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version: string };
        // From the sources, two folders up is outside the project: only cr's own file counts.
        if (pkg.name !== 'cr') continue;
        cached = pkg.version;
        break;
      } catch {
        /* not this layout: try the next */
      }
    }
    if (!cached) throw new Error('cr: package.json not found beside the installed code');
  }
  return cached;
}

export const userAgent = () => `cr/${version()} node/${process.versions.node}`;
