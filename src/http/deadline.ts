/**
 * `--timeout` bounds the whole command's requests, retries and their pauses included
 * (docs/cli-contract.md "At a terminal"), not each attempt: `--timeout 2` ends within about 2 s.
 */
export interface Deadline {
  /** When the time is up, in monotonicMs(). */
  at: number;
  /** The --timeout it came from, for messages. */
  seconds: number;
}

/** The longest --timeout: one day. Longer is a typo, and timers stop at ~24.8 days. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** Milliseconds on a clock that never steps back (hrtime, not Date, not performance: start-up). */
export const monotonicMs = (): number => Number(process.hrtime.bigint() / 1_000_000n);

export const deadlineIn = (seconds: number): Deadline => ({ at: monotonicMs() + seconds * 1000, seconds });

/** Milliseconds left before the deadline (0 when it has passed). */
export const remainingMs = (d: Deadline): number => Math.max(0, d.at - monotonicMs());
