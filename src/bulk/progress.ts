import type { IO } from '../io/streams.js';
import { clockTime } from '../http/rate-budget.js';

export interface Progress {
  /** One more row finished. */
  tick(): void;
  /** A wait for the rate window begins (epoch ms) or ends (undefined). */
  waiting(untilMs: number | undefined): void;
  stop(): void;
}

/**
 * Whole seconds left, rounded down: the reset instant comes in whole seconds, so a window of
 * 3600 s would otherwise start its countdown at 3601.
 */
export const secondsLeft = (untilMs: number, now = Date.now()) => Math.max(0, Math.floor((untilMs - now) / 1000));
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
 * On a terminal: a cli-progress bar on stderr (loaded only then) whose whole line is drawn by
 * src/io/live-line.ts for the terminal's width at each redraw (a resize is followed), the
 * countdown updated once a second while the run waits for the rate window.
 */
async function barProgress(io: IO, total: number): Promise<Progress> {
  const [{ default: cliProgress }, { liveLine }] = await Promise.all([import('cli-progress'), import('../io/live-line.js')]);
  let until: number | undefined;
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    // maxWidth is the stream's columns, read at each redraw; CR_FORCE_TTY (tests) over a pipe has none: the IO's width.
    format: (_options, params) =>
      liveLine(
        {
          value: params.value,
          total: params.total,
          wait: until === undefined ? undefined : { seconds: secondsLeft(until), at: clockTime(new Date(until), until - Date.now()) },
        },
        process.stderr.isTTY ? params.maxWidth : io.columns,
      ),
    hideCursor: true,
    clearOnComplete: true,
    noTTYOutput: !process.stderr.isTTY,
    etaBuffer: 50,
    // A notice written over the line (below) must get the bar back even when nothing changed.
    forceRedraw: true,
  });
  bar.start(total, 0);
  const restoreErr = noticesAboveBar(io, () => bar.render());
  let timer: NodeJS.Timeout | undefined;
  return {
    tick: () => bar.increment(),
    waiting(untilMs) {
      clearInterval(timer);
      timer = undefined;
      until = untilMs;
      bar.render();
      if (untilMs === undefined) return;
      timer = setInterval(() => bar.render(), 1000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      restoreErr();
      bar.stop();
    },
  };
}

/** Back to the line's start and clear it; line wrapping back on (cli-progress turns it off while the bar shows). */
const CLEAR_LINE = '\r\u001b[2K\u001b[?7h';
const NO_WRAP = '\u001b[?7l';

/**
 * While the bar shows, whatever else goes to stderr (the low rate-limit notice of
 * src/http/build-client.ts, a warning) would land after the bar on its line, with wrapping
 * off: cut, and a stale bar left. Each such write clears the line first and, once its line
 * is complete, the bar is drawn again under it (docs/output.md "Live lines"). Returns the
 * undo.
 */
function noticesAboveBar(io: IO, redraw: () => void): () => void {
  const plain = io.err;
  let barShown = true;
  io.err = {
    write(text) {
      if (barShown) plain.write(CLEAR_LINE);
      plain.write(text);
      barShown = text.endsWith('\n');
      if (!barShown) return;
      plain.write(NO_WRAP);
      redraw();
    },
  };
  return () => {
    io.err = plain;
  };
}

export async function startProgress(io: IO, total: number, ci = io.ci): Promise<Progress> {
  if (io.tty.err && !ci && total > 0) return barProgress(io, total);
  return lineProgress(io);
}
