import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isDatabaseUrl } from '../../src/config/store-url.js';

/** Names of this machine's loopback: `localhost` and `127.0.0.1` reach the same server. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * A PostgreSQL URL as the server it reaches: one scheme, loopback names as one, the default
 * port, database and user; never the password (a profile keeps none, docs/shared-sandbox.md).
 */
function databaseKey(url: string): string {
  try {
    const u = new URL(url);
    const host = LOOPBACK.has(u.hostname.toLowerCase()) ? 'loopback' : u.hostname.toLowerCase();
    return `postgresql://${decodeURIComponent(u.username)}@${host}:${u.port || '5432'}${decodeURIComponent(u.pathname)}`;
  } catch {
    return url;
  }
}

/**
 * A store file by where it really is, as the system opens it: symlinks and `..` resolved in
 * that order (`link/../a.json` is beside the link's target, not beside the link), a file
 * still to be made by its folder's real path.
 * (realpathSync.native: the JS realpathSync collapses `..` first, lexically.)
 */
export function realStorePath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    try {
      return join(realpathSync.native(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * Whether two spellings name one store (docs/local-server.md "cr local init"): a file through
 * a symlink or `sub/../`, a database as localhost or 127.0.0.1, postgres:// or postgresql://,
 * with or without its password.
 */
export function sameStore(a: string, b: string): boolean {
  if (isDatabaseUrl(a) !== isDatabaseUrl(b)) return false;
  return isDatabaseUrl(a) ? databaseKey(a) === databaseKey(b) : realStorePath(a) === realStorePath(b);
}
