import { displayWidth } from '../render/width.js';

/** The bar's widest and the narrowest worth drawing, in terminal columns. */
const MAX_BAR = 40;
const MIN_BAR = 10;

/**
 * A wait for the rate window, in the longest form that fits `room` columns: the words go
 * first, then the reset time; the seconds left stay to the last (docs/output.md "Live lines").
 */
export function waitStatus(seconds: number, at: string, room: number): string {
  const forms = waitForms(seconds, at);
  return forms.find((f) => displayWidth(f) <= room) ?? forms.at(-1)!;
}

const waitForms = (seconds: number, at: string) => [
  `rate limit reached; waiting ${seconds} s for the window to reset (at ${at})`,
  `rate limit; waiting ${seconds} s (reset at ${at})`,
  `waiting ${seconds} s (reset ${at})`,
  `waiting ${seconds} s`,
  `${seconds} s`,
];

export interface LiveState {
  value: number;
  total: number;
  /** The wait's seconds left and reset time, while the run waits for the rate window. */
  wait?: { seconds: number; at: string };
}

const bar = (progress: number, size: number) => {
  const done = Math.round(Math.min(1, Math.max(0, progress)) * size);
  return '\u2588'.repeat(done) + '\u2591'.repeat(size - done);
};

/**
 * The bulk run's live line for a terminal `width` columns wide, measured again at each redraw
 * (a resized terminal gets the next one fitted): `████░░ 3/10 rows | waiting 42 s (reset
 * 14:03)`. It never reaches the last column (a terminal would wrap there). What gives way, as
 * docs/output.md "Live lines" says: the bar shrinks to MIN_BAR, then the wait's words down to
 * `waiting 42 s`, then the bar goes; last of all the count, then the word "waiting".
 */
export function liveLine(state: LiveState, width: number): string {
  const room = Math.max(1, width - 1);
  const rows = `${state.value}/${state.total} rows`;
  const wait = state.wait;
  // Every wait form but the bare seconds, the longest first: `waiting 42 s` is the last one shown with the count.
  const texts = wait
    ? waitForms(wait.seconds, wait.at)
        .slice(0, -1)
        .map((f) => `${rows} | ${f}`)
    : [rows];
  const progress = state.total > 0 ? state.value / state.total : 0;
  for (const text of texts) {
    const size = Math.min(MAX_BAR, room - displayWidth(text) - 1);
    if (size >= MIN_BAR) return `${bar(progress, size)} ${text}`;
  }
  const text = texts.find((t) => displayWidth(t) <= room);
  if (text) return text;
  return wait ? waitStatus(wait.seconds, wait.at, room) : rows;
}
