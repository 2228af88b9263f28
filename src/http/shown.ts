import { redactKeys, redactUrlPassword } from '../config/redact.js';

/** Longer than this, a value from the network or the environment is cut in messages (docs/install.md "Redirects"). */
export const SHOWN_CHARS = 200;

// C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides and isolates
// (as src/render/escape.ts, which this layer may not import); a string, so no control character
// is written in a regular-expression literal.
const C0_C1 = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROLS = new RegExp(`[${C0_C1}\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u206f]`, 'g');

/**
 * A value that came from the network or the environment (a Location, a proxy host) as a message
 * may show it: a key in it masked, a URL's password as `***`, control characters escaped (they
 * would drive a terminal), and cut to SHOWN_CHARS with its full length said, so a 100 KB value
 * does not flood the error.
 */
export function shownValue(text: string): string {
  const safe = redactKeys(redactUrlPassword(text)).replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
  return safe.length <= SHOWN_CHARS ? safe : `${safe.slice(0, SHOWN_CHARS)}… (${text.length} chars)`;
}
