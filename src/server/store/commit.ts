import { dirname } from 'node:path';
import type { CollectionName, StoreData } from './schema.js';
import { applyChecked, checkBatch } from './batch.js';
import type { IdIndex, Mutation } from './batch.js';
import { sealedSnapshot } from './snapshot.js';
import { DEFAULT_BACKUPS, rotateBackups } from './backups.js';
import { StoreUnavailableError, takenOver, writeFailureCause } from './errors.js';
import { refuseOverCap, takeBatch } from './intake.js';
import type { Pending } from './intake.js';
import { syncDir, tempPathOf, writeTemp } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { JournalFile } from './journal-file.js';
import { foldLine, groupLineOf, headerLine, journalPathOf, snapshotId } from './journal.js';
import type { JournalState } from './replay.js';
import { DEFAULT_MAX_STORE_BYTES } from './commit-options.js';
import { TakenOver } from './fold.js';
import type { Fold } from './fold.js';
import type { CommitOptions, StoreStats } from './commit-options.js';

export { DEFAULT_MAX_STORE_BYTES } from './commit-options.js';
export type { CommitOptions, StoreStats } from './commit-options.js';

/**
 * The group commit of the store (docs/api-decisions.md §7), over the committed state it shares with
 * the Store facade (which only reads it).
 *
 * Writes are queued and group-committed: every write pending at that moment becomes one
 * line of the journal (`<store>.journal`), written and fsynced once; then all of them are
 * applied in place and acknowledged. A failed append cuts the journal back to its last good
 * length, rejects the group (503) and leaves memory at the last committed state.
 *
 * The journal is folded into the snapshot (the store file) past a threshold: the snapshot
 * text is built at once, written and fsynced to a temp file in the background while
 * commits go on, then installed between two commits (previous snapshot kept as .bak.1,
 * rename, folder fsync, journal reset). Also on a clean close. The store file is always a
 * complete, valid, sealed snapshot. `path` null: memory only, nothing written.
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private loop: Promise<void> | null = null;
  private closed = false;
  /** Number of commits since open; derived caches key on it. */
  generation = 0;
  /** Number of durable group commits (for tests and benchmarks). */
  commits = 0;

  private readonly journal: JournalFile;
  private seq: number;
  private unfoldedRecords: number;
  private unfoldedBytes: number;
  /** What the writes since the snapshot add to it (intake.ts), for the cap; a memory-only store's whole growth. */
  private unfoldedGrowth: number;
  private fold: Fold | null = null;
  private foldTask: Promise<void> | null = null;
  private forceFold = false;
  private foldRetryAt = 0;
  private counters = { fsyncs: 0, snapshots: 0, foldFailures: 0 };
  /** Explicit thresholds (0 = the defaults, which scale with the snapshot). */
  private readonly maxBytes: number;
  private readonly maxRecords: number;
  private snapshotBytes: number;
  private readonly keepBackups: number;
  private closedForFolds = false;
  private dead = false;
  private readonly maxStoreBytes: number;
  private readonly onFoldProblem: NonNullable<CommitOptions['onFoldProblem']>;
  private readonly hooks: Pick<CommitOptions, 'ownership' | 'onGroupCommit'>;

  constructor(
    private readonly state: StoreData,
    private readonly indexes: Map<CollectionName, IdIndex>,
    private readonly path: string | null,
    private readonly fs: StoreFs,
    j: JournalState & { fsyncs: number; snapshotBytes: number },
    opts: CommitOptions,
  ) {
    this.journal = new JournalFile(fs, path === null ? '' : journalPathOf(path), j.len, this.onSync);
    this.seq = j.seq;
    this.unfoldedRecords = j.records;
    this.unfoldedBytes = j.bytes;
    this.unfoldedGrowth = j.bytes;
    this.counters.fsyncs = j.fsyncs;
    this.snapshotBytes = j.snapshotBytes;
    this.maxBytes = opts.journalMaxBytes ?? 0;
    this.maxRecords = opts.journalMaxRecords ?? 0;
    this.keepBackups = opts.backups ?? DEFAULT_BACKUPS;
    this.maxStoreBytes = opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES;
    this.onFoldProblem = opts.onFoldProblem ?? (() => undefined);
    this.hooks = opts;
  }

  /**
   * The store is still this server's: its lock holds this server's token and the journal's
   * path still names the file appended to (docs/reliability.md "The store's lock"). Asked after
   * the fsync: a server frozen past the lock's staleness may wake up with a write in flight
   * while another server has taken the store over and moved the journal aside.
   */
  private stillOurs(): boolean {
    return (this.hooks.ownership?.owned() ?? true) && this.journal.atPath();
  }

  private refuseTakenOver(writes: Pending[]): void {
    for (const p of writes) p.reject(takenOver());
    this.lose();
  }

  /** The store was taken over: nothing more is written or acknowledged, queued writes get 503. */
  private lose(): void {
    this.dead = true;
    this.closed = true;
    this.closedForFolds = true;
    const failure = takenOver();
    for (const p of this.pending.splice(0)) p.reject(failure);
    try {
      this.hooks.ownership?.lost();
    } catch {
      /* the notice is best effort */
    }
  }

  /** The store's size as the cap sees it: the snapshot plus the growth of the writes since (no serialisation; a crash's journal counts its bytes until a fold). */
  sizeEstimate(): number {
    return this.snapshotBytes + this.unfoldedGrowth;
  }

  stats(): StoreStats {
    return {
      commits: this.commits,
      fsyncs: this.counters.fsyncs,
      journalBytes: this.journal.len,
      journalRecords: this.unfoldedRecords,
      snapshots: this.counters.snapshots,
      foldFailures: this.counters.foldFailures,
      writeFailure: this.journal.lastFailure,
    };
  }

  /** Queues mutations; resolves once they are durable (shared commit with concurrent writers). */
  commit(mutations: Mutation[]): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailableError({ why: this.dead ? 'lock_lost' : 'write_failed', cause: new Error('store closed') }));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ mutations, resolve, reject });
      this.kick();
    });
  }

  private kick() {
    this.loop ??= this.runLoop();
  }

  private onSync = () => void this.counters.fsyncs++;

  private async runLoop(): Promise<void> {
    try {
      // Let writes that arrive together join one commit.
      await new Promise((r) => setImmediate(r));
      while (!this.dead && (this.pending.length > 0 || this.fold?.phase === 'ready' || (this.forceFold && !this.fold))) {
        if (this.fold?.phase === 'ready') await this.installFold();
        if (this.pending.length > 0) await this.commitBatch();
        if (this.shouldFold()) await this.startFold();
      }
    } catch (err) {
      // Nothing thrown here may stop the server (docs/api-decisions.md §9): what was journaled stays
      // acknowledged; writes still queued are refused (503) rather than left waiting.
      this.forceFold = false;
      this.foldFailed(err);
      for (const p of this.pending.splice(0)) p.reject(new StoreUnavailableError({ cause: err }));
    } finally {
      this.loop = null;
    }
  }

  private async commitBatch(): Promise<void> {
    const batch = takeBatch(this.pending);
    const failures = checkBatch(
      this.state,
      this.indexes,
      batch.map((p) => p.mutations),
    );
    let accepted: Pending[] = [];
    batch.forEach((p, i) => {
      const failure = failures.get(i);
      if (failure) p.reject(failure);
      else accepted.push(p);
    });
    accepted = refuseOverCap(accepted, this.sizeEstimate(), this.maxStoreBytes);
    if (accepted.length === 0) return;
    if (this.path !== null) {
      const line = groupLineOf(
        this.seq + 1,
        accepted.map((p) => p.json!),
      );
      const records = accepted.reduce((n, p) => n + p.mutations.length, 0);
      // Before too: a server woken after a takeover journals nothing into the other's journal.
      if (!this.stillOurs()) return this.refuseTakenOver(accepted);
      try {
        await this.journal.append(line);
      } catch (err) {
        const failure = new StoreUnavailableError({ cause: err, why: writeFailureCause(err) });
        for (const p of accepted) p.reject(failure);
        return; // memory stays at the last committed state
      }
      // Durable, but in a journal another server may never read: not acknowledged (503).
      if (!this.stillOurs()) return this.refuseTakenOver(accepted);
      this.seq++;
      const bytes = Buffer.byteLength(line);
      this.unfoldedRecords += records;
      this.unfoldedBytes += bytes;
      if (this.fold) {
        this.fold.after.push(line);
        this.fold.afterRecords += records;
        this.fold.afterBytes += bytes;
      }
    }
    this.unfoldedGrowth += accepted.reduce((n, p) => n + p.growth!, 0); // a memory-only store grows here too
    // Durable now: only from here on may readers see these writes.
    applyChecked(
      this.state,
      this.indexes,
      accepted.map((p) => p.mutations),
    );
    this.generation++;
    this.commits++;
    this.hooks.onGroupCommit?.(accepted.length);
    for (const p of accepted) p.resolve();
  }

  private shouldFold(): boolean {
    if (this.path === null || this.fold || this.closedForFolds) return false;
    if (this.forceFold) return true;
    if (this.unfoldedRecords === 0) return false;
    const maxBytes = this.maxBytes || Math.max(4 * 1024 * 1024, this.snapshotBytes / 4);
    const maxRecords = this.maxRecords || Math.max(10_000, this.snapshotBytes / 1024);
    if (this.unfoldedRecords < maxRecords && this.unfoldedBytes < maxBytes) return false;
    return Date.now() >= this.foldRetryAt;
  }

  /**
   * Starts a fold: the snapshot of the committed state is built now, a fold line naming it
   * is journaled, and the temp file is written and fsynced in the background.
   */
  private async startFold(): Promise<void> {
    this.forceFold = false;
    const path = this.path!;
    let bytes: Buffer;
    try {
      // Past V8's string limit this throws (RangeError: Invalid string length); so may an
      // allocation. The journal still holds every write: retried later, never fatal.
      bytes = sealedSnapshot(this.state);
    } catch (err) {
      this.foldFailed(err);
      return;
    }
    const id = snapshotId(bytes);
    try {
      await this.journal.append(foldLine(this.seq, id));
    } catch (err) {
      this.foldFailed(err);
      return;
    }
    const fold: Fold = {
      phase: 'writing',
      id,
      size: bytes.length,
      tmp: tempPathOf(path),
      after: [],
      afterRecords: 0,
      afterBytes: 0,
      coversRecords: this.unfoldedRecords,
      coversBytes: this.unfoldedBytes,
      coversGrowth: this.unfoldedGrowth,
    };
    this.fold = fold;
    this.foldTask = (async () => {
      try {
        await writeTemp(this.fs, fold.tmp, bytes, { sync: true, onSync: this.onSync });
        fold.phase = 'ready';
      } catch (err) {
        await this.fs.unlink(fold.tmp).catch(() => undefined);
        this.fold = null;
        this.foldFailed(err);
        return;
      } finally {
        this.foldTask = null;
      }
      this.kick();
    })();
  }

  private foldFailed(error: unknown) {
    if (this.counters.foldFailures === 0) {
      try {
        this.onFoldProblem({ failed: true, error });
      } catch {
        /* a log that fails must not turn a failed fold into a crash */
      }
    }
    this.counters.foldFailures++;
    this.foldRetryAt = Date.now() + Math.min(60_000, 500 * 2 ** Math.min(7, this.counters.foldFailures));
  }

  /** Installs a written fold, between two commits: backups, rename, folder fsync, journal reset. */
  private async installFold(): Promise<void> {
    const fold = this.fold!;
    const path = this.path!;
    let renamed = false;
    try {
      if (!this.stillOurs()) throw new TakenOver();
      await rotateBackups(this.fs, path, this.keepBackups);
      // Checked again right before the rename: it would replace another server's store file.
      if (!this.stillOurs()) throw new TakenOver();
      await this.fs.rename(fold.tmp, path);
      renamed = true;
      await syncDir(this.fs, dirname(path), this.onSync);
    } catch (err) {
      if (!renamed) await this.fs.unlink(fold.tmp).catch(() => undefined);
      this.fold = null;
      if (err instanceof TakenOver) return this.lose();
      this.foldFailed(err);
      // Renamed but not known durable: keep the journal as it is (its fold line matches either snapshot).
      if (renamed) this.journal.dirSyncOwed = true;
      return;
    }
    this.fold = null;
    this.counters.snapshots++;
    this.snapshotBytes = fold.size;
    if (this.counters.foldFailures > 0) {
      try {
        this.onFoldProblem({ failed: false, failures: this.counters.foldFailures });
      } catch {
        /* see foldFailed */
      }
    }
    this.counters.foldFailures = 0;
    this.foldRetryAt = 0;
    this.unfoldedRecords -= fold.coversRecords;
    this.unfoldedBytes -= fold.coversBytes;
    this.unfoldedGrowth -= fold.coversGrowth;
    // A new journal: a header naming the new snapshot, then the groups journaled since the fold line.
    // If it cannot be put in place, the old journal stays valid (its fold line names the new snapshot).
    if (!this.stillOurs()) return this.lose();
    await this.journal.replace(headerLine(fold.id) + fold.after.join(''));
  }

  /** Waits until every queued write is committed (or failed). */
  async flush(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /** Folds the journal into the snapshot now (and waits for it); a failure leaves the journal in charge. */
  async compact(): Promise<void> {
    if (this.path === null || this.dead) return;
    await this.settleFold();
    this.forceFold = true;
    this.kick();
    await this.settleFold();
  }

  private async settleFold() {
    while (!this.dead) {
      await this.flush();
      if (this.foldTask) {
        await this.foldTask;
        continue;
      }
      if (this.fold?.phase === 'ready' || this.pending.length > 0) {
        this.kick();
        continue;
      }
      return;
    }
  }

  /**
   * Drops the store the way a crash would (tests): no flush, no fold, nothing more written
   * once the write in progress ends; the journal handle is closed.
   */
  async abandon(): Promise<void> {
    this.dead = true;
    this.closed = true;
    this.closedForFolds = true;
    await this.foldTask;
    await this.loop;
    for (const p of this.pending.splice(0)) p.reject(new StoreUnavailableError({ cause: new Error('store abandoned') }));
    await this.journal.close();
  }

  /** Flushes, folds the journal into the snapshot and closes the journal. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    try {
      await this.settleFold();
      if (this.path !== null && this.unfoldedRecords > 0) await this.compact();
    } finally {
      this.closedForFolds = true;
      await this.journal.close();
    }
  }
}
