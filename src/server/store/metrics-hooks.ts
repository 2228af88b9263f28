/**
 * What a store may tell `GET /metrics` (src/server/app/metrics.ts), kept to callbacks so that a
 * store never loads the metrics library: the server reads `poolStats` on each scrape when a
 * store has it, and hands the JSON store's group commit an `onGroupCommit` (commit-options.ts).
 */

/** The connections of a database store's pool, as of now. */
export interface PoolStats {
  /** Checked out by a request or a commit. */
  inUse: number;
  /** Open and free. */
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/** Implemented by a store with a connection pool (the PostgreSQL store). */
export interface PooledStore {
  poolStats(): PoolStats;
}

export const poolStatsOf = (store: object): PoolStats | undefined =>
  typeof (store as Partial<PooledStore>).poolStats === 'function' ? (store as PooledStore).poolStats() : undefined;
