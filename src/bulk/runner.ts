import { RateBudget } from './budget.js';
import type { Sender } from './send.js';
import type { PlanRow, RowResult, StopReason } from './types.js';
import { EXIT } from '../errors.js';
import { backoffDelay } from '../http/retry.js';

export interface RunnerOptions {
  /** Rows to send, in file order (state-file skips already taken out). */
  rows: PlanRow[];
  concurrency: number;
  /** Wait for the rate window's reset instead of leaving rows unsent. */
  wait: boolean;
  send: Sender;
  /** Aborted on Ctrl-C: no new sends; in-flight ones get `graceMs` to finish. */
  signal: AbortSignal;
  /** Called once per finished row, awaited before the row counts (the state write). */
  onResult(result: RowResult): Promise<void>;
  /** A wait for the rate window starts (`untilMs`, epoch) or ends (undefined). */
  onWait?(untilMs: number | undefined): void;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  graceMs?: number;
  /** Sends of a row again after a transient failure (502/503/504, connection lost), at most; 0 for none. */
  retry?: number;
  /** Base of the backoff between sends of one row (tests shorten it). */
  retryBaseMs?: number;
  /** A row is about to be sent again (its `attempt`-th retry) after `error`. */
  onRetry?(row: PlanRow, attempt: number, error: string): void;
}

export interface RunnerResult {
  results: RowResult[];
  stop?: StopReason;
  /** 3 or 4: the key was refused; the run stopped at once. */
  authExit?: number;
  /** A row could not be recorded (state file): the run stopped; rethrown by the caller. */
  fatal?: unknown;
}

/** Margin past the advertised reset, for clock skew between this machine and the server. */
const RESET_MARGIN_MS = 250;

export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Whether a refusal is the key's (every row would meet it: stop) or one row's website's (that
 * row fails alone, docs/cli-contract.md "For CI jobs: bulk scheduling"). A 401 is always the
 * key's. A 403 is the key's role when the row names no website of its own; when it names
 * one, it is that website outside the key's scope once any row has worked, and the key's
 * role when rows of two different websites were refused before any row worked.
 */
class KeyRefusal {
  private worked = false;
  private readonly refusedSites = new Set<string>();

  observe(row: PlanRow, out: Awaited<ReturnType<Sender>>): boolean {
    if (out.ok) {
      this.worked = true;
      return false;
    }
    if (out.exit === EXIT.auth) return true;
    if (out.exit !== EXIT.permission) return false;
    if (row.websiteId === undefined) return true;
    if (this.worked) return false;
    this.refusedSites.add(row.websiteId);
    return this.refusedSites.size >= 2;
  }
}

const notSent = (row: PlanRow, error: string, code: string, exit: number): RowResult => ({ row, status: 'not_sent', error, code, exit });

/**
 * Sends the rows with at most `concurrency` in flight, inside the key's rate budget
 * (RateBudget). A row that met a transient failure is sent again after a backoff, through
 * the same budget, up to `retry` times. Stops starting new sends when the key itself is
 * refused (keyRefused), on an exhausted budget or a 429 without --wait, and on Ctrl-C.
 */
export async function runRows(o: RunnerOptions): Promise<RunnerResult> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? abortableSleep;
  const budget = new RateBudget();
  const queue = [...o.rows];
  const results = new Map<PlanRow, RowResult>();
  const inFlight = new Map<PlanRow, Promise<void>>();
  let stop: StopReason | undefined;
  let authExit: number | undefined;
  let fatal: unknown;
  let closed = false;
  const retries = new Map<PlanRow, number>();
  const refusal = new KeyRefusal();
  const aborted = new Promise<void>((resolve) => (o.signal.aborted ? resolve() : o.signal.addEventListener('abort', () => resolve(), { once: true })));

  const start = (row: PlanRow) => {
    const job = (async () => {
      const out = await o.send(row);
      if (closed) return;
      budget.observe(out.headers, out.status ?? 0, now());
      if (!out.ok && out.status === 429) {
        // Not applied: back to the front of the queue for after the wait, or left unsent.
        if (o.wait) queue.unshift(row);
        else results.set(row, notSent(row, out.error, out.code, EXIT.rateLimited));
        return;
      }
      const tries = retries.get(row) ?? 0;
      if (!out.ok && out.retryable && tries < (o.retry ?? 0) && !o.signal.aborted) {
        // Rescheduling a post to the same instant is idempotent: a send that may have been
        // applied before its connection was lost is safe to repeat (docs/cli-contract.md).
        retries.set(row, tries + 1);
        o.onRetry?.(row, tries + 1, out.error);
        await sleep(backoffDelay(tries + 1, o.retryBaseMs), o.signal);
        queue.unshift(row);
        return;
      }
      if (refusal.observe(row, out)) {
        stop = 'auth';
        authExit ??= out.ok ? undefined : out.exit;
      }
      const counted = tries ? { retries: tries } : {};
      const result: RowResult = out.ok
        ? { row, status: 'scheduled', scheduledAt: out.scheduledAt, ...counted }
        : { row, status: 'failed', error: out.error, code: out.code, exit: out.exit, ...counted };
      await o.onResult(result);
      results.set(row, result);
    })()
      .catch((err: unknown) => {
        fatal ??= err;
      })
      .finally(() => inFlight.delete(row));
    inFlight.set(row, job);
  };
  const settleOne = () => Promise.race([...inFlight.values(), aborted]);

  while (!stop && fatal === undefined && !o.signal.aborted) {
    if (queue.length === 0) {
      if (inFlight.size === 0) break;
      await settleOne();
      continue;
    }
    if (inFlight.size >= o.concurrency || (inFlight.size > 0 && !budget.canStart(inFlight.size))) {
      await settleOne();
      continue;
    }
    if (!budget.canStart(0)) {
      if (!o.wait) {
        stop = 'rate_limit';
        break;
      }
      const until = (budget.resetAt() ?? now() + 60_000) + RESET_MARGIN_MS;
      o.onWait?.(until);
      await sleep(Math.max(0, until - now()), o.signal);
      o.onWait?.(undefined);
      budget.windowReset();
      continue;
    }
    start(queue.shift()!);
  }

  if (o.signal.aborted) {
    stop = 'interrupted';
    // In-flight sends get a moment to finish (and be recorded); past that the run ends
    // without them (docs/cli-contract.md: exit 130 within 0.5 s). Their rows are sent again by a rerun.
    const grace = new Promise<void>((r) => setTimeout(r, o.graceMs ?? 250).unref());
    await Promise.race([Promise.all(inFlight.values()), grace]);
  } else {
    await Promise.all(inFlight.values());
  }
  closed = true;
  for (const row of inFlight.keys()) results.set(row, notSent(row, 'interrupted before the answer arrived', 'INTERRUPTED', EXIT.interrupted));
  const leftReason: Record<StopReason, [string, string, number]> = {
    rate_limit: ['the rate limit budget ran out (use --wait to wait for the reset)', 'RATE_LIMITED', EXIT.rateLimited],
    auth: ['the run stopped: the key was refused', 'STOPPED', authExit ?? EXIT.auth],
    interrupted: ['interrupted', 'INTERRUPTED', EXIT.interrupted],
  };
  for (const row of queue) {
    if (results.has(row)) continue;
    const [error, code, exit] = leftReason[stop ?? 'interrupted'];
    results.set(row, notSent(row, error, code, exit));
  }
  return { results: [...results.values()], stop, authExit, fatal };
}
