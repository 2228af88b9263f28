import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnProcess } from './helpers/process.js';
import { tempDir } from './helpers/tmp.js';

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
  if (fresh) return;
  // The build's own environment, like every child of the tests (test/helpers/process.ts).
  const build = await spawnProcess('npm', ['run', 'build'], { env: { HOME: tempDir('cr-build-home-') }, timeoutMs: 180_000, execa: { stdout: 'inherit', stderr: 'inherit' } });
  if (build.exitCode !== 0) throw new Error(`npm run build failed (exit ${build.exitCode})`);
}
