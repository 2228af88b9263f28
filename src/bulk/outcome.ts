import { EXIT } from '../errors.js';
import type { RowResult, StopReason } from './types.js';

/**
 * The run's exit code (docs/cli-contract.md "For CI jobs"): 130 when interrupted; 3 or 4 when the key
 * was refused (the run stopped at once); 7 when the rate limit left rows unsent; else the
 * exit code of the first failed row in file order; 0 when every row is scheduled or skipped.
 */
export function exitOf(results: readonly RowResult[], stop?: StopReason, authExit?: number): number {
  if (stop === 'interrupted') return EXIT.interrupted;
  if (stop === 'auth') return authExit ?? EXIT.auth;
  if (results.some((r) => r.status === 'not_sent' && r.code === 'RATE_LIMITED')) return EXIT.rateLimited;
  const failed = [...results].sort((a, b) => a.row.line - b.row.line).find((r) => r.status === 'failed' || r.status === 'not_sent');
  return failed ? (failed.exit ?? EXIT.failure) : EXIT.ok;
}

export interface Counts {
  scheduled: number;
  skipped: number;
  failed: number;
  not_sent: number;
}

export function countOf(results: readonly RowResult[]): Counts {
  const c: Counts = { scheduled: 0, skipped: 0, failed: 0, not_sent: 0 };
  for (const r of results) c[r.status]++;
  return c;
}

/** `12 scheduled, 3 skipped, 1 failed, 0 not sent`: always on stderr at the end. */
export const summaryLine = (c: Counts) => `${c.scheduled} scheduled, ${c.skipped} skipped, ${c.failed} failed, ${c.not_sent} not sent`;
