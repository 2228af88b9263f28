/** A fold of the journal into the snapshot while it is under way (commit.ts, docs/api-decisions.md §7). */

/** The store was found taken over by another server during a fold (GroupCommit.stillOurs). */
export class TakenOver extends Error {}

export interface Fold {
  phase: 'writing' | 'ready';
  id: string;
  size: number;
  tmp: string;
  /** Journal lines appended after the fold line: the new journal keeps them. */
  after: string[];
  afterRecords: number;
  afterBytes: number;
  /** What the new snapshot covers (subtracted from the counters once installed). */
  coversRecords: number;
  coversBytes: number;
  coversGrowth: number;
}
