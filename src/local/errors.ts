import { LocalError, UsageError } from '../errors.js';
import type { KeyErrorKind } from '../server/domain/keys.js';
import { dirname } from 'node:path';
import { escapeControls } from '../render/escape.js';

/** Exit code of an unusable store file (EX_CONFIG from sysexits.h). */
export const EXIT_BAD_STORE = 78;

/**
 * A key request that names something wrong is a usage error (exit 2); a store with no user
 * to own a key is a store problem (exit 1). Chosen by kind, never by the message's words.
 */
const KEY_ERROR_IS_USAGE: Record<KeyErrorKind, boolean> = {
  'unknown-role': true,
  scope: true,
  'unknown-website': true,
  'unknown-agency': true,
  'unknown-user': true,
  'unknown-key': true,
  'no-user': false,
};

/** File-system refusals met beside a store (a read-only folder, no permission): said in words. */
const FS_REFUSALS: Record<string, string> = {
  EROFS: 'the folder is on a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/**
 * A disk (or quota) with no room left. Even a command that only reads writes beside the store
 * (its lock, src/server/store/lock.ts), so it fails there: said with its own code and the store
 * named, instead of an ENOSPC naming no file (an internal error).
 */
const NO_ROOM: Record<string, string> = { ENOSPC: 'no space left on the device', EDQUOT: 'disk quota exceeded' };

/**
 * Maps the server's store and key errors to CLI errors: an invalid store exits 78, a store
 * held by another process exits 1 with the holder named (one whose lock cannot be read, too), a bad key request exits 2, a
 * folder the store's files cannot be written in exits 1 naming the path. Anything else
 * passes through.
 */
export async function asCliError(err: unknown, storePath?: string): Promise<unknown> {
  const [{ StoreError }, { StoreLockedError, LockUnreadableError }, { KeyError }] = await Promise.all([
    import('../server/store/errors.js'),
    import('../server/store/lock.js'),
    import('../server/domain/keys.js'),
  ]);
  if (err instanceof StoreError) return new LocalError(err.message, EXIT_BAD_STORE, { cause: err, code: 'STORE_INVALID' });
  // The PostgreSQL store's (docs/shared-sandbox.md): named, not internal errors; no database client loads for this.
  if (err instanceof Error && err.name === 'SchemaTooNewError') return new LocalError(err.message, EXIT_BAD_STORE, { cause: err, code: 'STORE_SCHEMA_NEWER' });
  if (err instanceof Error && err.name === 'SchemaTooOldError') return new LocalError(err.message, EXIT_BAD_STORE, { cause: err, code: 'STORE_SCHEMA_OLDER' });
  if (err instanceof Error && (err as { code?: unknown }).code === 'STORE_UNREACHABLE')
    return new LocalError(err.message, 1, { cause: err, code: 'STORE_UNREACHABLE' });
  if (err instanceof StoreLockedError) return new LocalError(err.message, 1, { cause: err, code: 'STORE_LOCKED' });
  if (err instanceof LockUnreadableError) return new LocalError(err.message, 1, { cause: err, code: 'STORE_LOCK_UNREADABLE' });
  if (err instanceof KeyError) {
    return KEY_ERROR_IS_USAGE[err.kind] ? new UsageError(err.message) : new LocalError(err.message, 1, { cause: err, code: 'STORE_NO_USER' });
  }
  const errno = err as NodeJS.ErrnoException;
  if (errno instanceof Error && typeof errno.code === 'string' && NO_ROOM[errno.code]) {
    const store = storePath === undefined ? 'the store' : `the store ${escapeControls(storePath)}`;
    return new LocalError(
      `cannot write beside ${store}: ${NO_ROOM[errno.code]} (${errno.code}); free some space there (--local and cr local commands take the store's lock, a small file beside it, even to read)`,
      1,
      { cause: err, code: 'STORE_DISK_FULL' },
    );
  }
  if (errno instanceof Error && typeof errno.code === 'string' && FS_REFUSALS[errno.code]) {
    const where = typeof errno.path === 'string' ? `in ${escapeControls(dirname(errno.path))}` : 'beside the store';
    return new LocalError(
      `cannot write ${where}: ${FS_REFUSALS[errno.code]} (${errno.code}); commands that only read, such as cr local keys list, still work`,
      1,
      { cause: err, code: 'STORE_NOT_WRITABLE' },
    );
  }
  return err;
}
