/** Key masking: a key is never printed whole after it is created (docs/cli-contract.md §3). */
import { API_KEY_IN_TEXT, API_KEY_PATTERN } from '../api/vocabulary.js';

/** Shorter than this, a key of another shape shows nothing of itself but its length. */
const SHORT_KEY = 20;

/**
 * `cr_1a2b…9f0e`: enough to tell keys apart, useless to an attacker. A well-formed key
 * shows 4 + 4 of its 40 hex digits; a key of another shape shows less the shorter it
 * is (a tenth of it at each end, at most 4), and under 20 characters only the `cr_`
 * prefix, when it has one, and its length.
 */
export function maskKey(key: string): string {
  if (API_KEY_PATTERN.test(key)) return `cr_${key.slice(3, 7)}…${key.slice(-4)}`;
  if (key.length < SHORT_KEY) return `${key.startsWith('cr_') ? 'cr_' : ''}… (${key.length} chars)`;
  const n = Math.min(4, Math.floor(key.length / 10));
  return `${key.slice(0, n)}…${key.slice(-n)}`;
}

/** Replaces every whole key inside free text (URLs, bodies, error messages) with its mask. */
export function redactKeys(text: string): string {
  return text.replace(API_KEY_IN_TEXT, (k) => maskKey(k));
}

/**
 * A URL as shown in lists and status (`cr profiles list`, `cr auth status`): a password in
 * it becomes `***`, as in the error that refuses such a base URL (docs/cli-contract.md §3).
 * In a value no URL parser accepts, everything between the user name and the last `@` is hidden.
 */
export function redactUrlPassword(value: string): string {
  try {
    const u = new URL(value);
    if (u.password) {
      u.password = '***';
      return u.toString();
    }
  } catch {
    /* read by hand below */
  }
  // `scheme://user:secret@…` with a character that stops the parser, or `user:secret@host` with no scheme.
  const withScheme = value.replace(/^(\s*[^:/?#@\s]+:\/\/[^/:@]*):.*@/s, '$1:***@');
  return withScheme !== value ? withScheme : value.replace(/^(\s*[^:/?#@\s]+):[^/@\s]*@/, '$1:***@');
}
