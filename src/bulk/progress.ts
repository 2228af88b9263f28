import type { IO } from '../io/streams.js';
import { clockTime } from '../http/rate-budget.js';

export interface Progress {
  /** One more row finished. */
  tick(): void;
  /** A wait for the rate window begins (epoch ms) or ends (undefined). */
  waiting(untilMs: number | undefined): void;
  stop(): void;
}

const secondsLeft = (untilMs: number) => Math.max(0, Math.ceil((untilMs - Date.now()) / 1000));
/** The reset instant in local time, as the 429 hints say it (src/http/rate-budget.ts whenText). */
const waitText = (untilMs: number) =>
  `rate limit reached; waiting ${secondsLeft(untilMs)} s for the window to reset (at ${clockTime(new Date(untilMs), untilMs - Date.now())})`;

/** Off a terminal: no bar; a wait prints a line now and every ~10 s (CI logs keep each line). */
function lineProgress(io: IO): Progress {
  let timer: NodeJS.Timeout | undefined;
  return {
    tick() {},
    waiting(untilMs) {
      clearInterval(timer);
      timer = undefined;
      if (untilMs === undefined) return;
      const say = () => io.err.write(`cr: ${waitText(untilMs)}\n`);
      say();
      timer = setInterval(say, 10_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * On a terminal: a cli-progress bar on stderr (loaded only then), whose status field
 * shows the countdown, updated once a second, while the run waits for the rate window.
 */
async function barProgress(_io: IO, total: number): Promise<Progress> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: '{bar} {value}/{total} rows {status}',
      hideCursor: true,
      clearOnComplete: true,
      // CR_FORCE_TTY (tests) asks for terminal output where stderr is a pipe.
      noTTYOutput: !process.stderr.isTTY,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { status: '' });
  let timer: NodeJS.Timeout | undefined;
  return {
    tick: () => bar.increment(),
    waiting(untilMs) {
      clearInterval(timer);
      timer = undefined;
      if (untilMs === undefined) return bar.update({ status: '' });
      const show = () => bar.update({ status: `| ${waitText(untilMs)}` });
      show();
      timer = setInterval(show, 1000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      bar.stop();
    },
  };
}

export async function startProgress(io: IO, total: number, ci = io.ci): Promise<Progress> {
  if (io.tty.err && !ci && total > 0) return barProgress(io, total);
  return lineProgress(io);
}
