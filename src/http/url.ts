import { CRM_PATH_SEGMENT } from '../api/vocabulary.js';
import type { Route } from '../api/routes.js';

export interface UrlInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
}

/** Joins a path under the base URL and appends the defined query values (arrays repeat the key). */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, unknown>): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
  }
  return url.toString();
}

/**
 * The URL of one endpoint: path parameters filled in (encoded), the CRM segment renamed when
 * a profile says so, the query appended. The client and --dry-run both use it.
 */
export function endpointUrl(baseUrl: string, ep: Route, input: UrlInput = {}, crmSegment?: string): string {
  let path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.params?.[name] ?? ''));
  if (ep.operationId === 'listCrmAgents' && crmSegment && crmSegment !== CRM_PATH_SEGMENT) {
    path = path.replace(`/${CRM_PATH_SEGMENT}/`, `/${encodeURIComponent(crmSegment)}/`);
  }
  return joinUrl(baseUrl, path, input.query);
}
