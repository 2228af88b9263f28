// What the build writes into the bundles as constants (esbuild `define`), read by src/startup/version.ts
// and src/startup/build-info.ts (`cr --version`, `cr version`): no file is read for them at run time.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = realpathSync(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The commit of this checkout, or "unknown": built from a tarball, or without git. Only a git
 * work tree rooted here counts: a package unpacked inside another project's repository (a
 * node_modules folder) must not report that project's commit.
 */
export function commit(root = ROOT, env = process.env) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(root)) return 'unknown';
    return git('rev-parse', 'HEAD');
  } catch {
    return 'unknown';
  }
}

/** Now, or SOURCE_DATE_EPOCH (seconds) for a reproducible build (reproducible-builds.org's convention). */
export function buildDate(env = process.env) {
  const epoch = env.SOURCE_DATE_EPOCH;
  const date = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const version = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).version;

export const buildDefines = () => ({
  __CR_VERSION__: JSON.stringify(version),
  __CR_COMMIT__: JSON.stringify(commit()),
  __CR_BUILD_DATE__: JSON.stringify(buildDate()),
});
