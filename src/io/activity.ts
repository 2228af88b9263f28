import type { IO } from './streams.js';
import { startSpinner, type Spinner } from './spinner.js';

/** Marks a piece of slow work; call the returned function when it ends. */
export type Activity = (label: string) => () => void;

/**
 * A spinner on stderr for requests that take longer than `delayMs`, so fast calls never
 * flash one. Only on a real terminal and never in CI (startSpinner decides).
 */
export function spinnerActivity(io: IO, delayMs = 300): Activity {
  return (label) => {
    let finished = false;
    let spinner: Spinner | undefined;
    const timer = setTimeout(() => {
      void startSpinner(io, label).then((s) => {
        if (finished) s.stop();
        else spinner = s;
      });
    }, delayMs);
    timer.unref();
    return () => {
      finished = true;
      clearTimeout(timer);
      spinner?.stop();
    };
  };
}
