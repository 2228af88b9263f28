/**
 * Shapes shared by the bulk scheduler (docs/cli-contract.md "For CI jobs: bulk scheduling"): a checked
 * plan row, the outcome of one row, and the finished run.
 */

/** One row of the plan after the whole file was checked. */
export interface PlanRow {
  /** Physical line in the file (CSV: the header is line 1). */
  line: number;
  id: string;
  /** `at` as written in the file. */
  at: string;
  /** The instant `at` stands for (relative times resolved once, against the run's "now"). */
  when: Date;
  /** What is sent as scheduled_at (wireTime: the written form when the API takes it). */
  wire: string;
  websiteId?: string;
}

export type RowStatus = 'scheduled' | 'skipped' | 'failed' | 'not_sent';

export interface RowResult {
  row: PlanRow;
  status: RowStatus;
  /** The time the server holds (scheduled) or held per the state file (skipped). */
  scheduledAt?: string;
  /** Why the row failed or was not sent (already free of control characters only when rendered). */
  error?: string;
  code?: string;
  /** The exit code this row alone would have ended with. */
  exit?: number;
  /** How many times the row was sent again after a transient failure (--retry). */
  retries?: number;
}

/** Why the run stopped starting new sends before the plan was done. */
export type StopReason = 'rate_limit' | 'auth' | 'interrupted';

export interface RunSummary {
  results: RowResult[];
  stop?: StopReason;
  /** Exit code of the whole run (docs/cli-contract.md: 0, 3/4, 7, first failed row's, 130). */
  exit: number;
}

/** A bad row found while checking the file: reported as `FILE:LINE: message`. */
export interface PlanProblem {
  line: number;
  message: string;
}

export type PlanFormat = 'csv' | 'jsonl';
