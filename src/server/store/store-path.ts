import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isCode, nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { checkDatabaseUrl, isDatabaseUrl } from '../../config/store-url.js';

/** `$CR_STORE`, else `$XDG_DATA_HOME/cr/store.json`, else `~/.local/share/cr/store.json`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.CR_STORE?.trim();
  // A postgres:// URL is a database (docs/shared-sandbox.md), not a path to resolve.
  if (given) return isDatabaseUrl(given) ? checkDatabaseUrl(given) : resolve(given);
  // HOME from the env given, not os.homedir() (process.env), so a CLI context's env decides.
  const dataHome = env.XDG_DATA_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.local', 'share');
  return join(dataHome, 'cr', 'store.json');
}

// The kernel's own limit on symlinks followed in one lookup (ELOOP past it).
const MAX_LINKS = 40;

/**
 * The one canonical path of a store (docs/api-decisions.md §9): symlinks and `..` resolved, so that
 * two paths to one file are one store — one lock, one journal, one set of backups — and a
 * symlink stays a symlink while its target is what gets written (the atomic rename lands on
 * the target, beside which every sidecar sits). A store that does not exist yet is resolved
 * through its folder (created later) or through a dangling symlink to where it will be.
 */
export function resolveStorePath(path: string, storeFs: StoreFs = nodeFs): string {
  const fs = storeFs.sync;
  let target = resolve(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    try {
      return fs.realpath(target);
    } catch (err) {
      if (!isCode(err, 'ENOENT')) throw err;
    }
    // Missing: either nothing is there, or a symlink whose target does not exist yet. Its
    // folder is made canonical first: a relative link is relative to where it really sits.
    const here = join(resolveFolder(fs, dirname(target)), basename(target));
    let link: string;
    try {
      link = fs.readlink(here);
    } catch (err) {
      if (isCode(err, 'ENOENT', 'EINVAL')) return here;
      throw err;
    }
    target = resolve(dirname(here), link);
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' });
}

/** realpath of the nearest folder that exists, with the missing rest appended as given. */
function resolveFolder(fs: StoreFs['sync'], dir: string): string {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    try {
      return join(fs.realpath(at), ...missing.reverse());
    } catch (err) {
      const parent = dirname(at);
      if (!isCode(err, 'ENOENT') || parent === at) throw err;
      missing.push(basename(at));
      at = parent;
    }
  }
}
