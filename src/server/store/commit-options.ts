/** The group commit's options and counters (commit.ts), apart so that callers can name them without the commit loop. */

/** When the journal is folded into the snapshot, and how many backups a fold keeps. */
export interface CommitOptions {
  /**
   * Fold the journal into the snapshot once this many bytes were journaled since the last
   * fold. Default: 4 MiB, or a quarter of the snapshot's size if that is more (a fold costs
   * a whole-snapshot rewrite, so its cost per journaled byte stays flat on large stores, and
   * the replay at start stays a fraction of the load).
   */
  journalMaxBytes?: number;
  /** … or this many mutations. Default: 10,000, or one per KiB of snapshot if that is more. */
  journalMaxRecords?: number;
  /** Previous snapshots kept as `<store>.bak.N` (default 2). */
  backups?: number;
  /**
   * Size cap of the store (docs/api-decisions.md §9, `cr serve --max-store-mb`; default 256 MiB): a
   * write that would take the estimate (snapshot bytes + what the writes since add to it as
   * the snapshot writes them, intake.ts) past it is refused with StoreFullError, before anything is written.
   */
  maxStoreBytes?: number;
  /**
   * Told once when folds start failing (one short line's worth: the error's name and
   * message), and once when a fold succeeds again. Never the payload.
   */
  onFoldProblem?: (event: { failed: true; error: unknown } | { failed: false; failures: number }) => void;
  /**
   * Whether the store is still this process's (its lock, lock.ts), asked after every journal
   * fsync before a write is acknowledged and before a fold's rename; `lost` is told once when
   * it is not. Set by Store.open; none for a memory-only store.
   */
  ownership?: { owned(): boolean; lost(): void };
  /** Told the number of writes of each group made durable (`GET /metrics`, src/server/app/metrics.ts). */
  onGroupCommit?: (writes: number) => void;
}

export const DEFAULT_MAX_STORE_BYTES = 256 * 1024 * 1024;

/** Counters for tests and benchmarks. */
export interface StoreStats {
  /** Group commits made durable (one journal append + fsync each). */
  commits: number;
  /** fsync calls issued by the store (journal, snapshot, folder). */
  fsyncs: number;
  /** Current size of the journal file. */
  journalBytes: number;
  /** Mutations in the journal that the snapshot on disk does not hold yet. */
  journalRecords: number;
  /** Snapshot rewrites (folds) completed since open. */
  snapshots: number;
  /** Folds that failed (and will be retried). */
  foldFailures: number;
  /** The last journal append that failed, until one works again (journal-file.ts). */
  writeFailure?: { code: string; at: number };
}
