import { z } from 'zod';
import type { Role } from './schemas/common.js';
import { FinanceSummary } from './schemas/finance.js';
import { AdCreative, CreateAdCreativeBody } from './schemas/ads.js';
import { ContentListener, CreateListenerBody, CreateListenerQuery } from './schemas/listeners.js';
import { ScheduledPost, SchedulePostBody, SchedulePostParams } from './schemas/social.js';
import { LearningsList, ListLearningsQuery } from './schemas/intelligence.js';
import { ListNurtureQuery, NurtureList } from './schemas/nurture.js';
import { Visibility, VisibilityQuery } from './schemas/visibility.js';
import { BrandSubjectList, ScopeFilterQuery } from './schemas/brand.js';
import { CrmAgentList } from './schemas/crm.js';

/**
 * How an endpoint treats website scope (decisions.md §2):
 * - `owner`: not website data at all (finance belongs to the key's user);
 * - `single`: addresses one website; agency keys must name it;
 * - `filter`: lists everything in the key's scope, optionally narrowed by website_id.
 */
export type WebsiteScope = 'owner' | 'single' | 'filter';

type AnyObject = z.ZodType<Record<string, unknown>>;

/** One published endpoint, described once; client, server, MCP and OpenAPI all read this. */
export interface Endpoint<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends AnyObject | undefined = AnyObject | undefined,
  D extends z.ZodType = z.ZodType,
> {
  operationId: string;
  method: 'GET' | 'POST';
  /** Path under /api/v1, with `{name}` path parameters. */
  path: string;
  tag: string;
  title: string;
  description: string;
  minRole: Role;
  websiteScope: WebsiteScope;
  params: P;
  query: Q;
  body: B;
  data: D;
}

const define = <P extends AnyObject | undefined, Q extends AnyObject | undefined, B extends AnyObject | undefined, D extends z.ZodType>(
  ep: Endpoint<P, Q, B, D>,
) => ep;

export const endpoints = {
  getFinanceSummary: define({
    operationId: 'getFinanceSummary',
    method: 'GET',
    path: '/finance/summary',
    tag: 'Finance',
    title: 'Finance summary',
    description:
      'Aggregates over all business entities owned by the authenticated user: monthly recurring revenue, active client count, monthly costs, AI costs and upcoming invoice alerts.',
    minRole: 'viewer',
    websiteScope: 'owner',
    params: undefined,
    query: undefined,
    body: undefined,
    data: FinanceSummary,
  }),
  createAdCreative: define({
    operationId: 'createAdCreative',
    method: 'POST',
    path: '/content/ads/creatives/create',
    tag: 'Content',
    title: 'Create ad creative',
    description: 'Creates an ad creative (status draft, source api, metrics zero). Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'single',
    params: undefined,
    query: undefined,
    body: CreateAdCreativeBody,
    data: AdCreative,
  }),
  createContentListener: define({
    operationId: 'createContentListener',
    method: 'POST',
    path: '/content/listeners',
    tag: 'Content Listeners',
    title: 'Create content listener',
    description:
      'Creates a content listener that subscribes to an external source (reddit, youtube, google_news, google_search, rss, linkedin, x, pinterest, quora). Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'single',
    params: undefined,
    query: CreateListenerQuery,
    body: CreateListenerBody,
    data: ContentListener,
  }),
  scheduleSocialPost: define({
    operationId: 'scheduleSocialPost',
    method: 'POST',
    path: '/social/posts/{id}/schedule',
    tag: 'Social',
    title: 'Schedule social post',
    description:
      'Schedules a draft social post for future publishing; a scheduled post is rescheduled. Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'filter',
    params: SchedulePostParams,
    query: undefined,
    body: SchedulePostBody,
    data: ScheduledPost,
  }),
  listLearnings: define({
    operationId: 'listLearnings',
    method: 'GET',
    path: '/intelligence/learnings',
    tag: 'Intelligence',
    title: 'List confirmed learnings',
    description:
      'Lists confirmed learnings (validated by two or more independent test wins), highest confidence first.',
    minRole: 'viewer',
    websiteScope: 'single',
    params: undefined,
    query: ListLearningsQuery,
    body: undefined,
    data: LearningsList,
  }),
  listNurtureSequences: define({
    operationId: 'listNurtureSequences',
    method: 'GET',
    path: '/content/nurture-sequences',
    tag: 'Content',
    title: 'List nurture sequences',
    description: 'Lists nurture sequences with step counts, most recently updated first, one page at a time.',
    minRole: 'viewer',
    websiteScope: 'single',
    params: undefined,
    query: ListNurtureQuery,
    body: undefined,
    data: NurtureList,
  }),
  getGbpVisibility: define({
    operationId: 'getGbpVisibility',
    method: 'GET',
    path: '/gbp/visibility',
    tag: 'GBP',
    title: 'Visibility rank grid',
    description:
      'Returns the latest visibility rank grid of the business profile: 9x9 points within 25 miles per tracked keyword.',
    minRole: 'viewer',
    websiteScope: 'single',
    params: undefined,
    query: VisibilityQuery,
    body: undefined,
    data: Visibility,
  }),
  listBrandSubjects: define({
    operationId: 'listBrandSubjects',
    method: 'GET',
    path: '/brand/brand-subjects',
    tag: 'Brand',
    title: 'List brand subjects',
    description: 'Lists brand subjects with reference image URLs (base64 image data removed).',
    minRole: 'viewer',
    websiteScope: 'filter',
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: BrandSubjectList,
  }),
  listCrmAgents: define({
    operationId: 'listCrmAgents',
    method: 'GET',
    path: '/integrations/crm/agents',
    tag: 'Integrations',
    title: 'List CRM agents',
    description: 'Lists the CRM AI agents with their active prompt version (prompt text truncated to 200 characters).',
    minRole: 'viewer',
    websiteScope: 'filter',
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: CrmAgentList,
  }),
} as const;

export type Endpoints = typeof endpoints;
export type OperationId = keyof Endpoints;
export const endpointList: readonly Endpoint[] = Object.values(endpoints) as unknown as Endpoint[];

/** The CRM product's path segment in the published path; profiles may rename it. */
export const CRM_PATH_SEGMENT = 'crm';

export type DataOf<E> = E extends Endpoint<any, any, any, infer D> ? z.infer<D> : never;
export type BodyInput<E> = E extends Endpoint<any, any, infer B, any> ? (B extends z.ZodType ? z.input<B> : undefined) : never;
export type QueryInput<E> = E extends Endpoint<any, infer Q, any, any> ? (Q extends z.ZodType ? z.input<Q> : undefined) : never;
export type ParamsInput<E> = E extends Endpoint<infer P, any, any, any> ? (P extends z.ZodType ? z.input<P> : undefined) : never;
