import { readFileSync, rmSync, statSync } from 'node:fs';

/**
 * Small files a running `cr serve` leaves for others: the `--url-file` a CI script waits on
 * (docs/local-server.md, the CI recipe) and the advertisement beside its store that `--local`
 * reads to talk to it. Each is written whole by src/config/atomic-write.ts; these read them back.
 */

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

/**
 * Whether the file was written by this user and no one else can have changed it: owned by
 * this user, not writable by group or others. Another local user could otherwise plant an
 * advertisement that sends `--local`'s admin key to their own port, or a `--url-file` that
 * `cr local wait` prints as the server's URL (docs/cli-contract.md "Local mode in CI").
 * Where there are no uids (Windows), the mode check alone. `notWritableBy`: the mode bits
 * that must be clear (group and others by default).
 */
export function ownFile(path: string, notWritableBy = 0o022): boolean {
  try {
    const st = statSync(path);
    const uid = process.getuid?.();
    return st.isFile() && (uid === undefined || st.uid === uid) && (st.mode & notWritableBy) === 0;
  } catch {
    return false;
  }
}
