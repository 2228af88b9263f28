/**
 * Text for the server's log lines (docs/api-decisions.md §9): a value from a request or a store is
 * never written raw. What a control character is has one definition, `escapeControls`
 * (C0, DEL, C1, bidirectional overrides); the log adds its own rules on top: the backslash is
 * doubled first (so an escape in the log is never ambiguous with one the request sent), the
 * Unicode line and paragraph separators are escaped too (a log viewer may break lines there),
 * and long values are cut. A request cannot forge a log line (`%0a`), drive the terminal
 * that shows the log (`%1b[2J`) or reorder it (`%e2%80%ae`).
 */
import { escapeControls } from '../render/escape.js';

const LINE_SEPARATORS = /[\u2028\u2029]/g;

const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `value` with control characters escaped, cut to `max` characters (`…` marks the cut). */
export function logSafe(value: unknown, max = 2048): string {
  let s = String(value);
  if (s.length > max) s = `${s.slice(0, max)}…`;
  return escapeControls(s.replaceAll('\\', '\\\\')).replace(LINE_SEPARATORS, unicodeEscape);
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
