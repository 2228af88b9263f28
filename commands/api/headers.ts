import { UsageError } from '../../src/errors.js';

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `-H 'Name: value'` (repeatable, as `gh api -H`) into request headers. Authorization is
 * refused: cr sends the profile's key itself, and a key typed on the command line would
 * show in `ps` and shell history (docs/cli-contract.md: no flag takes a key) or replace the profile's
 * by accident. Use `--profile` or CR_API_KEY for another key.
 */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) throw new UsageError(`-H expects "Name: value", got "${line}"`);
    if (name.toLowerCase() === 'authorization') {
      throw new UsageError('-H Authorization is refused: cr api sends the key of the profile', 'use --profile NAME or CR_API_KEY for another key');
    }
    const value = line.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`-H ${name}: the value may not hold a line break`);
    out[name.toLowerCase()] = value;
  }
  return out;
}
