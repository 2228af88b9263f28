import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes a small file whole or not at all, durably: a temp file of this process's own in the
 * same folder (O_EXCL), fsynced, renamed over the name, then the folder fsynced so the rename
 * itself survives a power cut (docs/reliability.md "Small files"). A reader sees either the
 * old text or the new one, never an empty or half-written file; on failure the temp file goes
 * and the old file is untouched. For config.json (src/config/profiles.ts), the `--url-file`, the
 * serve advertisement and the local credential. The store's journal and snapshot have their
 * own write path (src/server/store/fs-layer.ts, docs/store-format.md).
 *
 * Why not write-file-atomic: it fsyncs the file but not the folder, so a rename can be lost
 * in a crash, and its current major needs Node 20.17+ (cr supports 20.15).
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${(++counter).toString(36)}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, mode); // the umask may have narrowed it; a 0600 key file stays 0600 either way
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncFolder(dirname(path));
}

/** fsync of a folder, so a rename in it is durable; where a folder cannot be opened or synced (some platforms), as durable as they allow. */
function syncFolder(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'ENOTSUP' && code !== 'EPERM') throw err;
  } finally {
    closeSync(fd);
  }
}
