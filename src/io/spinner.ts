import type { IO } from './streams.js';

export interface Spinner {
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

const silent: Spinner = { succeed() {}, fail() {}, stop() {} };

/**
 * An ora spinner on stderr, only when stderr is a real terminal and not in CI; otherwise
 * a no-op, so piped runs and logs stay clean. ora is loaded only when one is shown.
 */
export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  if (!io.tty.err || io.ci || !process.stderr.isTTY) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr, color: 'cyan', isEnabled: io.colorErr }).start();
  return {
    succeed: (t) => void spinner.succeed(t),
    fail: (t) => void spinner.fail(t),
    stop: () => void spinner.stop(),
  };
}
