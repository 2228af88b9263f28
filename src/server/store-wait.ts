import type { ReadinessGate } from './app/readiness-gate.js';

/** `--wait-for-store` when not given: a database starting with the machine is usually up within a minute. */
export const DEFAULT_WAIT_FOR_STORE_S = 60;
/** How often a database whose schema is newer than this build is asked again (a rolled-back upgrade serves again). */
export const SCHEMA_RECHECK_MS = 30_000;
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5_000;

export interface WaitOptions {
  /** How long connection-level failures are retried, in ms (0: the first failure is final). */
  waitMs: number;
  /** Where the wait is said (`starting`, `schema_newer`): what `GET /readyz` answers meanwhile. */
  readiness: Pick<ReadinessGate, 'waiting'>;
  notice: (line: string) => void;
  /** Called once the first attempt has ended, opened or not (requests held meanwhile are then answered). */
  firstTried?: () => void;
  /** For tests: the pause between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What an open failure means for the start-up: try again soon, hold on (a newer schema), or give up now. */
function verdictOf(err: unknown): 'transient' | 'schema_newer' | 'final' {
  if (err instanceof Error && err.name === 'SchemaTooNewError') return 'schema_newer';
  return (err as { transient?: unknown })?.transient === true ? 'transient' : 'final';
}

/**
 * Opens the store, waiting for a database that is not up yet (docs/shared-sandbox.md, "When
 * the database is not there"): a connection-level failure (nothing listening, starting up,
 * too many connections) is tried again with backoff (250 ms doubling to 5 s) for up to
 * `waitMs`, while `readiness` says `starting`; a wrong password, user, database or privilege
 * fails at once. A database whose schema is newer than this build is not a failure to give up
 * on: the server stays up, not ready (`schema_newer`, every request 503), and asks again every
 * SCHEMA_RECHECK_MS, so a rolling upgrade's old servers drop out of a balancer instead of
 * restarting in a loop. Each new state is told once on `notice`. `waitMs` 0: any failure is final.
 */
export async function openWaiting<T>(open: () => Promise<T>, o: WaitOptions): Promise<T> {
  const sleep = o.sleep ?? pause;
  const until = performance.now() + o.waitMs;
  let delay = FIRST_PAUSE_MS;
  let told = '';
  // Once per distinct failure: a database down for a minute is one line, not one per attempt.
  const tell = (what: string, line: string) => {
    if (what !== told) o.notice(line);
    told = what;
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (err) {
      // --wait-for-store 0: every failure is final, a newer schema too (exit 78, as before there was a wait).
      const verdict = o.waitMs === 0 ? 'final' : verdictOf(err);
      const message = (err as Error).message;
      if (verdict === 'schema_newer') {
        o.readiness.waiting('schema_newer', message);
        if (attempt === 0) o.firstTried?.();
        tell(message, `cr serve: ${message}; staying up, not ready (503 schema_newer), asking again every ${SCHEMA_RECHECK_MS / 1000} s`);
        await sleep(SCHEMA_RECHECK_MS);
        continue;
      }
      const left = until - performance.now();
      if (verdict === 'final' || left <= 0) {
        if (verdict === 'transient' && o.waitMs > 0) (err as Error).message += ` (still failing after --wait-for-store ${Math.round(o.waitMs / 1000)} s)`;
        throw err;
      }
      o.readiness.waiting('starting', message);
      if (attempt === 0) o.firstTried?.();
      tell(message, `cr serve: waiting for the store: ${message}; trying again for up to ${Math.ceil(left / 1000)} s (--wait-for-store)`);
      await sleep(Math.min(delay, left));
      delay = Math.min(MAX_PAUSE_MS, delay * 2);
    }
  }
}
