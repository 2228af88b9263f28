import { chmodSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';

/**
 * node:crypto, required on the first write only: every remote command reads the config
 * through src/config/profiles.ts, which imports this file, and `require('node:crypto')` takes 1.4 ms
 * on Node 20 and 5-10 ms on 22, 24 and 26 (in a process that already loaded node:net;
 * medians of 11), for a read that never writes (CONTRIBUTING.md "How cr starts", rule 10).
 */
const randomHex = (bytes: number): string => (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).randomBytes(bytes).toString('hex');

/**
 * Small files a running `cr serve` leaves for others: the `--url-file` a CI script waits on
 * (docs/local-server.md, the CI recipe) and the advertisement beside its store that `--local`
 * reads to talk to it. Each is written whole (temp file in the same folder, then rename), so
 * a reader sees either no file or the complete text, never an empty or half-written one.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
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
