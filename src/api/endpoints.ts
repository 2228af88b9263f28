import type { z } from 'zod';
import { routes } from './routes.js';
import type { OperationId, Route } from './routes.js';
import { FinanceSummary } from './schemas/finance.js';
import { AdCreative, CreateAdCreativeBody } from './schemas/ads.js';
import { ContentListener, CreateListenerBody, CreateListenerQuery } from './schemas/listeners.js';
import { ScheduledPost, SchedulePostBody, SchedulePostParams } from './schemas/social.js';
import { LearningsList, ListLearningsQuery } from './schemas/intelligence.js';
import { ListNurtureQuery, NurtureList } from './schemas/nurture.js';
import { Visibility, VisibilityQuery } from './schemas/visibility.js';
import { BrandSubjectList, ScopeFilterQuery } from './schemas/brand.js';
import { CrmAgentList } from './schemas/crm.js';

export { CRM_PATH_SEGMENT, routes } from './routes.js';
export type { OperationId, Route, WebsiteParam, WebsiteScope } from './routes.js';

type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * One published endpoint, described once: its route (routes.ts) and the zod schemas of its
 * path, query, body and response. Server, MCP tools and the OpenAPI document read this;
 * the CLI reads the routes and the response schemas as JSON Schema (response-schemas.ts).
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

const define = <R extends Route, P extends AnyObject | undefined, Q extends AnyObject | undefined, B extends AnyObject | undefined, D extends z.ZodType>(
  route: R,
  schemas: { params: P; query: Q; body: B; data: D },
) => ({ ...route, ...schemas }) as Endpoint<P, Q, B, D> & R;

export const endpoints = {
  getFinanceSummary: define(routes.getFinanceSummary, { params: undefined, query: undefined, body: undefined, data: FinanceSummary }),
  createAdCreative: define(routes.createAdCreative, { params: undefined, query: undefined, body: CreateAdCreativeBody, data: AdCreative }),
  createContentListener: define(routes.createContentListener, {
    params: undefined,
    query: CreateListenerQuery,
    body: CreateListenerBody,
    data: ContentListener,
  }),
  scheduleSocialPost: define(routes.scheduleSocialPost, { params: SchedulePostParams, query: undefined, body: SchedulePostBody, data: ScheduledPost }),
  listLearnings: define(routes.listLearnings, { params: undefined, query: ListLearningsQuery, body: undefined, data: LearningsList }),
  listNurtureSequences: define(routes.listNurtureSequences, { params: undefined, query: ListNurtureQuery, body: undefined, data: NurtureList }),
  getGbpVisibility: define(routes.getGbpVisibility, { params: undefined, query: VisibilityQuery, body: undefined, data: Visibility }),
  listBrandSubjects: define(routes.listBrandSubjects, { params: undefined, query: ScopeFilterQuery, body: undefined, data: BrandSubjectList }),
  listCrmAgents: define(routes.listCrmAgents, { params: undefined, query: ScopeFilterQuery, body: undefined, data: CrmAgentList }),
} as const satisfies { [Op in OperationId]: Endpoint & Route<Op> };

export type Endpoints = typeof endpoints;
/** Any entry of the table, its operation name typed. */
export type TableEndpoint = Endpoint & Route<OperationId>;
export const endpointList: readonly TableEndpoint[] = Object.values(endpoints) as readonly TableEndpoint[];
