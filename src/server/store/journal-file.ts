import { dirname } from 'node:path';
import { syncDir, tempPathOf, writeTemp } from './fs-layer.js';
import type { FileHandleLike, StoreFs } from './fs-layer.js';

/**
 * The open journal file (docs/api-decisions.md §7; its line format is in journal.ts): appends, each
 * fsynced before it counts, and the reset after a fold. Its durable length is what the
 * store has acknowledged; a failed append is cut back to it, at once or before the next.
 */
export class JournalFile {
  private fh: FileHandleLike | null = null;
  /** Durable length of the journal. */
  len: number;
  /** The journal may hold bytes after len (a failed append): cut them before the next one. */
  private dirty = false;
  /** A folder fsync still owed (a rename in the folder whose fsync failed). */
  dirSyncOwed = false;
  /** dev and ino of the open handle's file, read once per handle. */
  private identity: { dev: number; ino: number } | undefined;

  constructor(
    private readonly fs: StoreFs,
    readonly path: string,
    len: number,
    private readonly onSync: () => void,
  ) {
    this.len = len;
  }

  /**
   * The last append that failed (its errno code, when, epoch ms), cleared by the next one that
   * works: what the store's readiness reports (json-store.ts, ENOSPC as disk_full).
   */
  lastFailure: { code: string; at: number } | undefined;

  /** Appends to the journal and fsyncs it; on failure cuts it back to its last good length. */
  async append(text: string): Promise<void> {
    try {
      await this.appendOnce(text);
      this.lastFailure = undefined;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException)?.code;
      this.lastFailure = { code: typeof code === 'string' ? code : 'EIO', at: Date.now() };
      throw err;
    }
  }

  private async appendOnce(text: string): Promise<void> {
    if (this.dirSyncOwed) {
      await syncDir(this.fs, dirname(this.path), this.onSync);
      this.dirSyncOwed = false;
    }
    if (!this.fh) {
      const opened = await this.fs.open(this.path, 'a', 0o600);
      this.fh = opened;
      this.identity = await opened.stat?.().catch(() => undefined);
    }
    const fh = this.fh;
    if (this.dirty) {
      await fh.truncate(this.len);
      this.onSync();
      await fh.sync();
      this.dirty = false;
    }
    const buf = Buffer.from(text);
    try {
      await fh.writeFile(buf);
      this.onSync();
      await fh.sync();
    } catch (err) {
      this.dirty = true;
      try {
        await fh.truncate(this.len);
        this.onSync();
        await fh.sync();
        this.dirty = false;
      } catch {
        // Retried before the next append, on a fresh handle.
        this.fh = null;
        await fh.close().catch(() => undefined);
      }
      throw err;
    }
    this.len += buf.length;
  }

  /**
   * Replaces the journal with `text` (temp file, fsync, rename, folder fsync). False when
   * the old journal is still in place (the caller's fold line keeps it valid).
   */
  async replace(text: string): Promise<boolean> {
    const tmp = tempPathOf(this.path);
    try {
      await writeTemp(this.fs, tmp, text, { sync: true, onSync: this.onSync });
    } catch {
      await this.fs.unlink(tmp).catch(() => undefined);
      return false;
    }
    await this.close();
    try {
      await this.fs.rename(tmp, this.path);
    } catch {
      await this.fs.unlink(tmp).catch(() => undefined);
      return false;
    }
    this.len = Buffer.byteLength(text);
    this.dirty = false;
    try {
      await syncDir(this.fs, dirname(this.path), this.onSync);
    } catch {
      this.dirSyncOwed = true;
    }
    return true;
  }

  /**
   * The journal's path still names the file this handle writes: false once another server
   * has moved it aside (a fold of its own keeps it as `.bak.1.journal` and puts a new one in
   * place), so what was appended here is not in the store's journal any more. True when it
   * cannot be told (no handle yet, or a file-system layer without identities).
   */
  atPath(): boolean {
    if (!this.fh || !this.identity) return true;
    try {
      const now = this.fs.sync.stat(this.path);
      return now.dev === this.identity.dev && now.ino === this.identity.ino;
    } catch {
      return false;
    }
  }

  /** Closes the handle (the next append opens a new one). */
  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = null;
    this.identity = undefined;
    await fh?.close().catch(() => undefined);
  }
}
