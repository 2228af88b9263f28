import { MAX_DEPTH } from '../../json.js';
import { quotedName } from './fixture-echo.js';

/**
 * Where a fixture record nests deeper than an API body may (docs/api-decisions.md §1: 32
 * levels, the record itself is level 1), as a JSONPath suffix in the fixture's own notation
 * (`.x[0][0]`, `["a key"]`), cut at the limit; undefined when it does not. The walk stops at
 * the limit, so a record nested 300,000 deep costs 33 levels of it.
 */
export function tooDeepAt(record: unknown, max = MAX_DEPTH): string | undefined {
  const walk = (v: unknown, depth: number, path: string): string | undefined => {
    if (v === null || typeof v !== 'object') return undefined;
    if (depth > max) return path;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], depth + 1, `${path}[${i}]`);
        if (r !== undefined) return r;
      }
      return undefined;
    }
    for (const [k, child] of Object.entries(v)) {
      const r = walk(child, depth + 1, `${path}${/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${quotedName(k)}]`}`);
      if (r !== undefined) return r;
    }
    return undefined;
  };
  return walk(record, 1, '');
}
