import { execa } from 'execa';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds dist/ once, before any test file runs, when it is missing or older than the
 * sources. Test files run in parallel workers and several of them spawn the built CLI or
 * server, so no test may rebuild on its own: a build under a running test tears files.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTPUTS = [join(ROOT, 'dist', 'bundle', 'cli.js'), join(ROOT, 'dist', 'src', 'server', 'serve.js')];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export default async function setup(): Promise<void> {
  const sources = Math.max(newestSource(join(ROOT, 'src')), newestSource(join(ROOT, 'commands')));
  const fresh = OUTPUTS.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources);
  if (!fresh) await execa('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', timeout: 180_000 });
}
