import type { SyncFs } from './fs-layer.js';

/** What stat() tells of a file: which file it is, and when it last changed in any way. */
interface Seen {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const seenOf = (s: ReturnType<SyncFs['stat']>): Seen | undefined =>
  s.dev === undefined || s.ino === undefined || s.ctimeMs === undefined
    ? undefined
    : { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };

/**
 * Times that can tell a change from the one before: a ctime with a part of a second. A file
 * system that keeps whole seconds (ext4 made with 128-byte inodes, ext3, HFS+; FAT keeps two)
 * gives a takeover made within the second of the holder's last heartbeat (a staleness under a
 * second, CR_LOCK_STALE_MS; at any staleness, a lock whose mtime was set back, as `touch -d`
 * or a clock stepped forward does) the same times, and ext4 hands the new lock the inode just freed,
 * of the same size when the pids are as long (two containers' pid 1): stat() cannot tell the
 * two apart, the text can. Finer times cannot meet (the kernel's clock ticks every few ms): a
 * takeover comes at least the staleness (200 ms or more, lock-liveness.ts) after the holder's
 * last heartbeat, and a lock whose mtime was set back has an mtime no new lock is given.
 */
const fineTimes = (s: Seen) => s.ctimeMs % 1000 !== 0;

const same = (a: Seen, b: Seen) => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

function statOf(fs: SyncFs, path: string): Seen | undefined {
  try {
    return seenOf(fs.stat(path));
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock file still holds this holder's `token`, as the group commit asks before
 * each journal append and after each fsync (docs/reliability.md "The store's lock"): `read`
 * gives the lock's text (undefined when there is none, null when it cannot be read now).
 *
 * The text is read only when the file may have changed since it was last read holding the
 * token: the same file (device and inode) with the same size, mtime and ctime has not been
 * written, replaced, renamed or linked since (each of those sets its ctime), so one stat()
 * stands for open, read and close. A takeover puts a new file in place; the holder's own
 * heartbeat changes the times, and the next check reads the text again. Where stat() gives
 * no identity or ctime (a file-system layer without them), or times in whole seconds
 * (`fineTimes`), the text is read every time.
 *
 * Why: reading the lock twice per group commit was ~3 % of `cr serve`'s CPU per durable
 * write (docs/benchmarks-analysis.md, "Build against build").
 */
export function lockHeld(fs: SyncFs, lockPath: string, token: string, read: () => string | null | undefined): () => boolean {
  let verified: Seen | undefined;
  return () => {
    const before = statOf(fs, lockPath);
    if (before && verified && same(before, verified)) return true;
    verified = undefined;
    const text = read();
    // Kept only when the file did not change while it was read: the text is this file's.
    if (text === token && before) {
      const after = statOf(fs, lockPath);
      if (after && same(before, after) && fineTimes(after)) verified = after;
    }
    // Unreadable for now (EMFILE under load, EIO): as the heartbeat does, not taken for a
    // loss, which would stop the server for good; no one else can take over a lock they
    // cannot read either, and the journal's identity is still checked (commit.ts).
    return text === token || text === null;
  };
}
