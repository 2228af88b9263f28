import { UsageError } from '../errors.js';
import type { PathSegments, Route } from '../api/routes.js';

export interface UrlInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
}

/** Joins a path under the base URL and appends the defined query values (arrays repeat the key). */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, unknown>): string {
  const base = baseUrl.replace(/\/+$/, '');
  const url = new URL(base + (path.startsWith('/') ? path : `/${path}`));
  // `..` (or `%2e%2e`) segments are resolved by URL parsing: a path that climbs out of the
  // base URL would send the key to another service on the host (docs/cli-contract.md "cr api":
  // any path *under* the base URL).
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
    throw new UsageError(`the path ${JSON.stringify(path)} leaves the base URL (${basePath || '/'}): it resolves to ${url.pathname}`);
  }
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
  }
  return url.toString();
}

/**
 * The path with the table's renamable segments (`pathSegments`) replaced by the profile's
 * names; whole segments only, so a word elsewhere in the path is never touched.
 */
function renameSegments(path: string, segments: PathSegments | undefined, names: PathSegments): string {
  const renames = new Map<string, string>();
  for (const [setting, segment] of Object.entries(segments ?? {}) as [keyof PathSegments, string][]) {
    const name = names[setting];
    if (name && name !== segment) renames.set(segment, encodeURIComponent(name));
  }
  if (renames.size === 0) return path;
  return path
    .split('/')
    .map((part) => renames.get(part) ?? part)
    .join('/');
}

/**
 * The URL of one endpoint: path parameters filled in (encoded), the CRM segment renamed when
 * a profile says so, the query appended. The client and --dry-run both use it.
 */
export function endpointUrl(baseUrl: string, ep: Route, input: UrlInput = {}, crmSegment?: string): string {
  const path = renameSegments(ep.path, ep.pathSegments, { crm: crmSegment }).replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(input.params?.[name] ?? ''),
  );
  return joinUrl(baseUrl, path, input.query);
}
