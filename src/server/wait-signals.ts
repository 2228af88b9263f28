import type { ReadinessGate } from './app/readiness-gate.js';

/**
 * SIGINT/SIGTERM while `cr serve` waits for its store (store-wait.ts, `--wait-for-store`):
 * nothing is open yet, so the process exits 0 at once, as a stopped server does, instead of
 * waiting out the wait (a `docker stop` would SIGKILL it). At any other moment before the
 * server's own handlers are in place (handleShutdownSignals, serve.ts) the signal does what it
 * did without this: it ends the process. Returns a function that removes the handlers.
 */
export function exitOnSignalWhileWaiting(readiness: Pick<ReadinessGate, 'refusing'>, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    if (readiness.refusing) exit(0);
    else process.kill(process.pid, signal);
  };
  const remove = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return remove;
}
