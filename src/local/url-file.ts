import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Small files a running `cr serve` leaves for others: the `--url-file` a CI script waits on
 * (README "Local mode", the CI recipe) and the advertisement beside its store that `--local`
 * reads to talk to it. Each is written whole (temp file in the same folder, then rename), so
 * a reader sees either no file or the complete text, never an empty or half-written one.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    chmodSync(tmp, mode); // the umask may have narrowed it; a 0600 key file stays 0600 either way
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The file's text, or undefined when it is missing or unreadable. */
export function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Removes the file only while it still holds `text` (a newer server may have replaced it). */
export function removeIfStill(path: string, text: string): void {
  if (readTextFile(path) === text) rmSync(path, { force: true });
}
