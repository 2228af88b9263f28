import { API_KEY_IN_TEXT } from '../../../api/vocabulary.js';
import { maskKey } from '../../../config/redact.js';
import type { CollectionName } from '../../store/schema.js';

/**
 * A key itself is never stored, only its sha256 (docs/fixtures.md "API keys"): an api_keys
 * record that carries one, in a field of any name (`"key": "cr_…"`, pasted next to its
 * hash), is refused, or `cr local export` would print it whole later. The field is named
 * and the key shown masked (docs/cli-contract.md §3). A field called `key` is refused
 * whatever it holds: it can only be the key, in some other shape.
 */
export function rawKeyProblems(c: CollectionName, record: unknown, path: string, at: (path: string, message: string) => void): boolean {
  if (c !== 'api_keys' || !record || typeof record !== 'object') return true;
  let ok = true;
  const refuse = (where: string, value: string) => {
    ok = false;
    at(where, `holds a key (${maskKey(value)}): a key itself is never stored, give its sha256 as key_sha256 (docs/fixtures.md)`);
  };
  const walk = (value: unknown, where: string, top: boolean, name?: string) => {
    if (typeof value === 'string') {
      const found = value.match(API_KEY_IN_TEXT)?.[0];
      if (found) refuse(where, found);
      else if (top && name === 'key' && value !== '') refuse(where, value);
    } else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${where}[${i}]`, false);
    // Deeper than MAX_DEPTH was refused before this runs (src/server/ops/admin/fixtures.ts), so the walk is bounded.
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`, false, k);
  };
  for (const [k, v] of Object.entries(record)) walk(v, `${path}.${k}`, true, k);
  return ok;
}
