import { logSafe } from './log-text.js';

/**
 * The store was taken over by another process while `cr serve` was frozen (docs/reliability.md
 * "The store's lock"): every request is refused already (503, lock_lost); in-flight ones are
 * drained by `stop`, then the process exits 1 after one clear line on standard error, so that a
 * supervisor restarts it.
 */
export async function exitAfterStoreLoss(
  storePath: string,
  stop: () => Promise<void>,
  notice: (line: string) => void,
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<void> {
  notice(`cr serve: stopping: ${logSafe(storePath)} is no longer this server's (its lock was taken over); exit 1 once in-flight requests are answered`);
  try {
    await stop();
  } catch (err) {
    notice(`cr serve: error while stopping: ${logSafe((err as Error).message)}`);
  }
  exit(1);
}
