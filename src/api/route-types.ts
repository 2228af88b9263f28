/** The shape of the endpoint table's HTTP facts (endpoints.ts); types only, and one sentence. */
import type { Role } from './vocabulary.js';
import type { ErrorStatus } from './error-statuses.js';

export type { ErrorStatus } from './error-statuses.js';

/**
 * How an endpoint treats website scope (docs/api-decisions.md §2):
 * - `owner`: not website data at all (finance belongs to the key's user);
 * - `single`: addresses one website; agency keys must name it;
 * - `filter`: lists everything in the key's scope, optionally narrowed by website_id.
 */
export type WebsiteScope = 'owner' | 'single' | 'filter';

/**
 * Where a caller puts `website_id` (docs/api-decisions.md, Authentication 4: "a query parameter or
 * body field"): `query` or `body`, `none` for an operation that takes none.
 */
export type WebsiteParam = 'query' | 'body' | 'none';

/** Path segments a profile setting may rename, by setting: today only the CRM product's. */
export interface PathSegments {
  crm?: string;
}

/**
 * The HTTP facts of one published endpoint, as data. Each entry of the endpoint table
 * (endpoints.ts) holds these facts beside the zod schemas of its input and output; the build
 * copies the facts, without zod, into generated/routes.ts, which the CLI reads (routes.ts), so
 * a command never loads zod. Server, MCP tools and the OpenAPI document read these fields
 * rather than test operation names.
 */
export interface Route<Op extends string = string> {
  operationId: Op;
  method: 'GET' | 'POST';
  /** Path under /api/v1, with `{name}` path parameters. */
  path: string;
  tag: string;
  title: string;
  /** What the operation does; the minimum role is added where a document states it. */
  description: string;
  minRole: Role;
  websiteScope: WebsiteScope;
  websiteParam: WebsiteParam;
  /** Repeating the request has no further effect (MCP's idempotentHint). */
  idempotent: boolean;
  /** The error statuses it can answer with (docs/api-decisions.md §1; OpenAPI `responses`). */
  errorStatuses: readonly ErrorStatus[];
  /** Segments of `path` a profile setting renames (the CRM product's name). */
  pathSegments?: PathSegments;
}

/** `Minimum role: editor.`: the sentence a document adds to an operation's description. */
export const roleSentence = (r: Pick<Route, 'minRole'>) => `Minimum role: ${r.minRole}.`;
