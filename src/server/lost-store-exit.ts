import { logSafe } from './log-text.js';

/**
 * How long a server that lost its store keeps accepting before it drains: connections made
 * while it was frozen wait in the listening socket's backlog, and the loss is often seen first
 * thing on waking (the heartbeat's overdue timer runs before the first accept). Closing the
 * listener then would reset them; accepted, each is answered 503 lock_lost like any request.
 */
export const LOST_LINGER_MS = 1_000;

/**
 * The store was taken over by another process while `cr serve` was frozen (docs/reliability.md
 * "The store's lock"): every request is refused already (503, lock_lost); the connections
 * queued meanwhile are taken in and answered for LOST_LINGER_MS, then in-flight ones are
 * drained by `stop`, then the process exits 1 after one clear line on standard error, so that
 * a supervisor restarts it.
 */
export async function exitAfterStoreLoss(
  storePath: string,
  stop: () => Promise<void>,
  notice: (line: string) => void,
  exit: (code: number) => void = (code) => process.exit(code),
  lingerMs = LOST_LINGER_MS,
): Promise<void> {
  notice(`cr serve: stopping: ${logSafe(storePath)} is no longer this server's (its lock was taken over); exit 1 once in-flight requests are answered`);
  await new Promise((r) => setTimeout(r, lingerMs));
  try {
    await stop();
  } catch (err) {
    notice(`cr serve: error while stopping: ${logSafe((err as Error).message)}`);
  }
  exit(1);
}
