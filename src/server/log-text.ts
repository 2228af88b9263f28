/**
 * Text for the server's log lines (docs/api-decisions.md §9): a value from a request or a store is
 * never written raw. Control characters (C0, DEL, C1, the Unicode line and paragraph
 * separators) and the backslash become `\xNN` / `\uNNNN` escapes, so a request cannot forge
 * a log line (`%0a`) or drive the terminal that shows the log (`%1b[2J`); long values are cut.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/g;

const escapeOne = (ch: string): string => {
  if (ch === '\\') return '\\\\';
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `value` with control characters escaped, cut to `max` characters (`…` marks the cut). */
export function logSafe(value: unknown, max = 2048): string {
  let s = String(value);
  if (s.length > max) s = `${s.slice(0, max)}…`;
  return s.replace(UNSAFE, escapeOne);
}

/** One short line for an error: its name and first 200 characters of message, escaped; no stack, no payload. */
export function errorSummary(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return logSafe(`${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}`, 200);
  }
  return logSafe(err, 200);
}

/**
 * A reader of the log that went away (`cr serve 2>&1 | head -n 2`) makes the next write to
 * the stream fail with EPIPE, emitted as an 'error' event that would end the process. The
 * server keeps serving: errors of these streams are ignored (docs/api-decisions.md §9).
 */
export function ignoreClosedOutput(...streams: NodeJS.WritableStream[]): void {
  for (const s of streams) {
    if (s.listenerCount('error') === 0) s.on('error', () => undefined);
  }
}

/** The same for the process's own stdout and stderr, where `cr serve` prints its URL and log. */
export const ignoreClosedProcessOutput = (): void => ignoreClosedOutput(process.stderr, process.stdout);
