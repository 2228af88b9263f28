import { redactKeys } from '../config/redact.js';

/**
 * How a plan's values are echoed in its problems (docs/cli-contract.md "For CI jobs"): quoted,
 * and cut to their first ECHO_CHARS characters with their length named, so one bad value (a 150 MB
 * `id`) is never written whole into a CI log (docs/reliability.md "Bulk plans: size cap and cut echoes").
 */
export const ECHO_CHARS = 200;

/**
 * An API key pasted into a plan is shown masked (docs/cli-contract.md §3), before any cut, so
 * a cut never leaves most of a key in view.
 */

/** `"value"`, or `"first 200 characters…" (150,000,000 characters)`. */
export function quoted(given: string): string {
  const value = redactKeys(given);
  if (value.length <= ECHO_CHARS) return `"${value}"`;
  let head = value.slice(0, ECHO_CHARS);
  // Never half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `"${head}…" (${value.length.toLocaleString('en-US')} characters)`;
}

/** A message from a library that may quote the input (csv-parse does): cut the same way. */
export function clipped(given: string, max = 2 * ECHO_CHARS): string {
  const message = redactKeys(given);
  return message.length <= max ? message : `${message.slice(0, max)}… (${message.length.toLocaleString('en-US')} characters)`;
}

/** Names echoed in one problem at most; past them the rest are counted (a header of a million columns). */
export const ECHO_NAMES = 3;

/** `"a", "b", "c"`, or `"a", "b", "c" and 999,997 more`: each quoted and cut, the list bounded too. */
export function quotedList(values: string[]): string {
  const shown = values.slice(0, ECHO_NAMES).map(quoted).join(', ');
  const rest = values.length - ECHO_NAMES;
  return rest > 0 ? `${shown} and ${rest.toLocaleString('en-US')} more` : shown;
}
