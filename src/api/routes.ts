import { CRM_PATH_SEGMENT, type Role } from './vocabulary.js';

/** The CRM product's path segment, defined once in vocabulary.ts; re-exported for the table's users. */
export { CRM_PATH_SEGMENT };
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
 * The HTTP facts of one published endpoint, as data. The endpoint table (endpoints.ts) adds
 * the zod schemas of its input and output; the CLI needs only these facts (and the response
 * schemas as JSON Schema, response-schemas.ts), so a command never loads zod. Server, MCP
 * tools and the OpenAPI document read these fields rather than test operation names.
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

// `const`: each entry keeps its literal facts (operation name, websiteParam) for the request types.
const route = <const R extends Route>(r: R): R => r;

/*
 * Error statuses (docs/api-decisions.md §1): every operation can answer 401, 403, 429 and 500; 400
 * where it takes input (brand subjects and CRM agents take the website_id filter); writes
 * add 413 (body size), 415 (a body that is not JSON), 503 (store) and 507 (store full, §9);
 * scheduling adds the post lookup (404) and state (409).
 */
export const routes = {
  getFinanceSummary: route({
    operationId: 'getFinanceSummary',
    method: 'GET',
    path: '/finance/summary',
    tag: 'Finance',
    title: 'Finance summary',
    description:
      'Aggregates over all business entities owned by the authenticated user: monthly recurring revenue, active client count, monthly costs, AI costs and upcoming invoice alerts.',
    minRole: 'viewer',
    websiteScope: 'owner',
    // The service declares no parameter and ignores it; docs/cli-contract.md still sends --website everywhere.
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [401, 403, 429, 500],
  }),
  createAdCreative: route({
    operationId: 'createAdCreative',
    method: 'POST',
    path: '/content/ads/creatives/create',
    tag: 'Content',
    title: 'Create ad creative',
    description: 'Creates an ad creative (status draft, source api, metrics zero).',
    minRole: 'editor',
    websiteScope: 'single',
    websiteParam: 'body',
    idempotent: false,
    errorStatuses: [400, 401, 403, 413, 415, 429, 500, 503, 507],
  }),
  createContentListener: route({
    operationId: 'createContentListener',
    method: 'POST',
    path: '/content/listeners',
    tag: 'Content Listeners',
    title: 'Create content listener',
    description:
      'Creates a content listener that subscribes to an external source (reddit, youtube, google_news, google_search, rss, linkedin, x, pinterest, quora).',
    minRole: 'editor',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: false,
    errorStatuses: [400, 401, 403, 413, 415, 429, 500, 503, 507],
  }),
  scheduleSocialPost: route({
    operationId: 'scheduleSocialPost',
    method: 'POST',
    path: '/social/posts/{id}/schedule',
    tag: 'Social',
    title: 'Schedule social post',
    description: 'Schedules a draft social post for future publishing; a scheduled post is rescheduled.',
    minRole: 'editor',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507],
  }),
  listLearnings: route({
    operationId: 'listLearnings',
    method: 'GET',
    path: '/intelligence/learnings',
    tag: 'Intelligence',
    title: 'List confirmed learnings',
    description: 'Lists confirmed learnings (validated by two or more independent test wins), highest confidence first.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
  }),
  listNurtureSequences: route({
    operationId: 'listNurtureSequences',
    method: 'GET',
    path: '/content/nurture-sequences',
    tag: 'Content',
    title: 'List nurture sequences',
    description: 'Lists nurture sequences with step counts, most recently updated first, one page at a time.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
  }),
  getGbpVisibility: route({
    operationId: 'getGbpVisibility',
    method: 'GET',
    path: '/gbp/visibility',
    tag: 'GBP',
    title: 'Visibility rank grid',
    description: 'Returns the latest visibility rank grid of the business profile: 9x9 points within 25 miles per tracked keyword.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
  }),
  listBrandSubjects: route({
    operationId: 'listBrandSubjects',
    method: 'GET',
    path: '/brand/brand-subjects',
    tag: 'Brand',
    title: 'List brand subjects',
    description: 'Lists brand subjects with reference image URLs (base64 image data removed).',
    minRole: 'viewer',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
  }),
  listCrmAgents: route({
    operationId: 'listCrmAgents',
    method: 'GET',
    path: `/integrations/${CRM_PATH_SEGMENT}/agents`,
    pathSegments: { crm: CRM_PATH_SEGMENT },
    tag: 'Integrations',
    title: 'List CRM agents',
    description: 'Lists the CRM AI agents with their active prompt version (prompt text truncated to 200 characters).',
    minRole: 'viewer',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
  }),
} as const;

export type OperationId = keyof typeof routes;
