import { redactKeys, redactUrlPassword } from '../config/redact.js';
import { escapeControls } from '../render/escape.js';

/** Longer than this, a value from the network or the environment is cut in messages (docs/install.md "Redirects"). */
export const SHOWN_CHARS = 200;

/**
 * A value that came from the network or the environment (a Location, a proxy host) as a message
 * may show it: a key in it masked, a URL's password as `***`, control characters escaped (they
 * would drive a terminal), and cut to SHOWN_CHARS with its full length said, so a 100 KB value
 * does not flood the error.
 */
export function shownValue(text: string): string {
  const safe = escapeControls(redactKeys(redactUrlPassword(text)));
  return safe.length <= SHOWN_CHARS ? safe : `${safe.slice(0, SHOWN_CHARS)}… (${text.length} chars)`;
}
