import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read once from package.json (two folders above dist/src). */
export function version(): string {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    cached = pkg.version;
  }
  return cached;
}

export const userAgent = () => `cr/${version()} node/${process.versions.node}`;
