import type { IO } from './streams.js';

export interface Spinner {
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

const silent: Spinner = { succeed() {}, fail() {}, stop() {} };

/** Spinners on screen now, so an interruption can clear them before its error line. */
const active = new Set<Spinner>();

/** Stops every spinner still drawing (Ctrl-C: src/main.ts, before it reports). */
export function stopSpinners(): void {
  for (const s of [...active]) s.stop();
}

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/**
 * An ora spinner on stderr, only when stderr is a real terminal and not in CI; otherwise
 * a no-op, so piped runs and logs stay clean. ora is loaded only when one is shown.
 *
 * Ctrl-C must stop any command within 0.5 s (docs/cli-contract.md "At a terminal"). ora's defaults get
 * in the way: `discardStdin` puts the terminal in raw mode, so Ctrl-C is no SIGINT, and
 * `hideCursor` installs signal-exit's SIGINT listener for good, which src/main.ts would
 * take for a command handling Ctrl-C itself. So stdin stays as it is, and the cursor is
 * hidden here and shown again on stop or on any process exit.
 */
export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  if (!io.tty.err || io.ci || !process.stderr.isTTY) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr, color: 'cyan', isEnabled: io.colorErr, discardStdin: false, hideCursor: false });
  // ora draws nothing when not enabled (NO_COLOR): then the cursor is left alone too.
  const drawn = io.colorErr;
  const showCursor = () => void process.stderr.write(SHOW_CURSOR);
  if (drawn) {
    process.stderr.write(HIDE_CURSOR);
    process.once('exit', showCursor);
  }
  spinner.start();
  let ended = false;
  const end = (finish: () => void) => {
    if (ended) return;
    ended = true;
    active.delete(handle);
    finish();
    if (drawn) {
      process.off('exit', showCursor);
      showCursor();
    }
  };
  const handle: Spinner = {
    succeed: (t) => end(() => spinner.succeed(t)),
    fail: (t) => end(() => spinner.fail(t)),
    stop: () => end(() => spinner.stop()),
  };
  active.add(handle);
  return handle;
}
