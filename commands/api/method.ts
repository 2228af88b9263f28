import { routes } from '../../src/api/routes.js';
import { UsageError } from '../../src/errors.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** `/social/posts/{id}/schedule` as a pattern for a concrete path. */
const pattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`);

/** The methods the endpoint table has for a path (under /api/v1), none when it does not know it. */
export function knownMethods(path: string): Set<string> {
  const bare = path.split('?')[0]!;
  return new Set(
    Object.values(routes)
      .filter((r) => pattern(r.path).test(bare))
      .map((r) => r.method),
  );
}

/**
 * The method of a `cr api` call: -X when given; GET without a body; with -F or --input, POST
 * as `gh api` does, except on a path the endpoint table knows to answer GET only: there the
 * fields are its query (`cr api /intelligence/learnings -F limit=2`).
 */
export function chooseMethod(path: string, o: { method?: string; fields: boolean; input: boolean }): { method: string; defaulted: boolean } {
  if (o.method !== undefined) {
    const method = o.method.toUpperCase();
    if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`-X must be one of ${METHODS.join(', ')}; got "${o.method}"`);
    return { method, defaulted: false };
  }
  if (o.input) return { method: 'POST', defaulted: true };
  if (!o.fields) return { method: 'GET', defaulted: true };
  const known = knownMethods(path);
  return { method: known.size === 1 && known.has('GET') ? 'GET' : 'POST', defaulted: true };
}
