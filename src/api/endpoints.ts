import type { z } from 'zod';
import type { Route } from './route-types.js';
import { CRM_PATH_SEGMENT } from './vocabulary.js';
import { FinanceSummary } from './schemas/finance.js';
import { AdCreative, CreateAdCreativeBody } from './schemas/ads.js';
import { ContentListener, CreateListenerBody, CreateListenerQuery } from './schemas/listeners.js';
import { ScheduledPost, SchedulePostBody, SchedulePostParams } from './schemas/social.js';
import { LearningsList, ListLearningsQuery } from './schemas/intelligence.js';
import { ListNurtureQuery, NurtureList } from './schemas/nurture.js';
import { Visibility, VisibilityQuery } from './schemas/visibility.js';
import { BrandSubjectList, ScopeFilterQuery } from './schemas/brand.js';
import { CrmAgentList } from './schemas/crm.js';

export { CRM_PATH_SEGMENT };
export type { OperationId } from './routes.js';
export type { Route, WebsiteParam, WebsiteScope } from './route-types.js';
// Types only: the table must compile into the generator without the files it generates.
import type { OperationId } from './routes.js';

type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * One published endpoint, written once: its HTTP facts (route-types.ts) and the zod schemas of
 * its path, query, body and response. Server, MCP tools and the OpenAPI document read this
 * table; the build generates from it what the CLI reads without zod (scripts/gen-api.mjs:
 * generated/routes.ts, generated/request-schemas.ts, generated/response-schemas.ts), and
 * `npm run lint` fails while a committed generated file is stale (CONTRIBUTING.md,
 * "Adding an endpoint").
 */
export interface Endpoint<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends AnyObject | undefined = AnyObject | undefined,
  D extends z.ZodType = z.ZodType,
> extends Route {
  params: P;
  query: Q;
  body: B;
  data: D;
}

// `const`: each entry keeps its literal facts (operation name, websiteParam) for the request types.
const endpoint = <
  const R extends Route,
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends AnyObject | undefined,
  D extends z.ZodType,
>(
  e: R & { params: P; query: Q; body: B; data: D },
) => e as Endpoint<P, Q, B, D> & R;

/*
 * Error statuses (docs/api-decisions.md §1): every operation can answer 401, 403, 429 and 500; 400
 * where it takes input (brand subjects and CRM agents take the website_id filter); writes
 * add 413 (body size), 415 (a body that is not JSON), 503 (store) and 507 (store full, §9);
 * scheduling adds the post lookup (404) and state (409).
 */
export const endpoints = {
  getFinanceSummary: endpoint({
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
    params: undefined,
    query: undefined,
    body: undefined,
    data: FinanceSummary,
  }),
  createAdCreative: endpoint({
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
    params: undefined,
    query: undefined,
    body: CreateAdCreativeBody,
    data: AdCreative,
  }),
  createContentListener: endpoint({
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
    params: undefined,
    query: CreateListenerQuery,
    body: CreateListenerBody,
    data: ContentListener,
  }),
  scheduleSocialPost: endpoint({
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
    params: SchedulePostParams,
    query: undefined,
    body: SchedulePostBody,
    data: ScheduledPost,
  }),
  listLearnings: endpoint({
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
    params: undefined,
    query: ListLearningsQuery,
    body: undefined,
    data: LearningsList,
  }),
  listNurtureSequences: endpoint({
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
    params: undefined,
    query: ListNurtureQuery,
    body: undefined,
    data: NurtureList,
  }),
  getGbpVisibility: endpoint({
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
    params: undefined,
    query: VisibilityQuery,
    body: undefined,
    data: Visibility,
  }),
  listBrandSubjects: endpoint({
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
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: BrandSubjectList,
  }),
  listCrmAgents: endpoint({
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
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: CrmAgentList,
  }),
} as const;

export type Endpoints = typeof endpoints;
/** Any entry of the table, its operation name typed. */
export type TableEndpoint = Endpoint & Route<OperationId>;
export const endpointList: readonly TableEndpoint[] = Object.values(endpoints) as readonly TableEndpoint[];
