import { randomUUID } from 'node:crypto';
import type { OperationId } from '../api/endpoints.js';
import type { CreateAdCreativeBody } from '../api/schemas/ads.js';
import type { CreateListenerBody } from '../api/schemas/listeners.js';
import type { ListLearningsQuery } from '../api/schemas/intelligence.js';
import type { ListNurtureQuery } from '../api/schemas/nurture.js';
import type { VisibilityQuery } from '../api/schemas/visibility.js';
import type { SchedulePostBody } from '../api/schemas/social.js';
import type { Clock } from './clock.js';
import { utcDate } from './clock.js';
import type { Store } from './store.js';
import type { AuthContext, ResolvedScope } from './auth.js';
import { HttpError, postNotFound } from './errors.js';
import { financeSummary } from './compute/finance.js';
import { memoByGeneration } from './compute/memo.js';
import { Serialized } from './compute/serialized.js';
import type { FinanceSummary } from '../api/schemas/finance.js';

const financeMemo = memoByGeneration<Serialized<FinanceSummary>>();
import { listLearnings } from './compute/learnings.js';
import { listNurture } from './compute/nurture.js';
import { visibility } from './compute/visibility.js';
import { listBrandSubjects } from './compute/brand.js';
import { listCrmAgents } from './compute/crm.js';
import { adCreativeView, contentListenerView, newAdCreative, newContentListener, SCHEDULABLE } from './compute/writes.js';

/** What a route handler gets: dependencies, the caller, its resolved scope and validated input. */
export interface HandlerContext {
  store: Store;
  clock: Clock;
  auth: AuthContext;
  scope: ResolvedScope;
  newId: () => string;
}

export interface ValidInput {
  params: any;
  query: any;
  body: any;
}

export interface Handler {
  /** Checks that need the clock or cross-field rules, run in the validation step. */
  check?: (input: ValidInput, clock: Clock) => { path: string; message: string }[];
  run: (ctx: HandlerContext, input: ValidInput) => Promise<unknown> | unknown;
}

/**
 * One handler per operation: a plain function of (context, validated input) so that REST
 * routes and a future MCP layer run the same code after the same checks.
 */
export const handlers: Record<OperationId, Handler> = {
  getFinanceSummary: {
    run: ({ store, clock, auth }) => {
      const today = utcDate(clock.now());
      return financeMemo(
        store,
        `${auth.userId}|${today}`,
        () =>
          new Serialized(
            financeSummary({
              entities: store.list('business_entities'),
              records: store.list('revenue_records'),
              costs: store.list('cost_items'),
              ownerId: auth.userId,
              today,
            }),
          ),
      );
    },
  },

  createAdCreative: {
    run: async ({ store, clock, scope, newId }, { body }: { body: CreateAdCreativeBody } & ValidInput) => {
      const websiteId = scope.websiteId!;
      const found = body.campaign_id ? store.get('ad_campaigns', body.campaign_id) : undefined;
      const campaign = found && found.websiteId === websiteId ? found : undefined;
      const record = newAdCreative(body, { id: newId(), now: clock.now(), websiteId, campaign });
      await store.commit([{ op: 'insert', collection: 'ad_creatives', record }]);
      return adCreativeView(record);
    },
  },

  createContentListener: {
    run: async ({ store, clock, scope, newId }, { body }: { body: CreateListenerBody } & ValidInput) => {
      const record = newContentListener(body, { id: newId(), now: clock.now(), websiteId: scope.websiteId! });
      await store.commit([{ op: 'insert', collection: 'content_listeners', record }]);
      return contentListenerView(record);
    },
  },

  scheduleSocialPost: {
    check: ({ body }: { body: SchedulePostBody } & ValidInput, clock) =>
      Date.parse(body.scheduled_at) > clock.now().getTime()
        ? []
        : [{ path: 'scheduled_at', message: `scheduled_at must be in the future (now is ${clock.now().toISOString()})` }],
    run: async ({ store, clock, scope }, { params, body }) => {
      const post = store.get('social_posts', params.id as string);
      if (!post || !scope.websiteIds.has(post.websiteId)) throw postNotFound();
      if (!SCHEDULABLE.has(post.status)) {
        throw new HttpError(409, `Post is ${post.status}; only draft or scheduled posts can be scheduled`, 'INVALID_STATE');
      }
      const scheduledAt = (body as SchedulePostBody).scheduled_at;
      await store.commit([
        { op: 'patch', collection: 'social_posts', id: post.id, patch: { status: 'scheduled', scheduledAt, updatedAt: clock.now().toISOString() } },
      ]);
      return { id: post.id, status: 'scheduled', scheduledAt };
    },
  },

  listLearnings: {
    run: ({ store, scope }, { query }: { query: ListLearningsQuery } & ValidInput) =>
      listLearnings(store.list('learnings'), { websiteIds: scope.websiteIds, dimensionType: query.dimension_type, limit: query.limit }),
  },

  listNurtureSequences: {
    run: ({ store, scope }, { query }: { query: ListNurtureQuery } & ValidInput) =>
      listNurture(store.list('nurture_sequences'), {
        websiteIds: scope.websiteIds,
        status: query.status,
        limit: query.limit,
        offset: query.offset,
      }),
  },

  getGbpVisibility: {
    run: ({ store, scope }, { query }: { query: VisibilityQuery } & ValidInput) =>
      visibility(store.list('visibility_scans'), { websiteId: scope.websiteId!, keyword: query.keyword }),
  },

  listBrandSubjects: {
    run: ({ store, scope }) => listBrandSubjects(store.list('brand_subjects'), scope.websiteIds),
  },

  listCrmAgents: {
    run: ({ store, scope }) => listCrmAgents(store.list('crm_agents'), scope.websiteIds),
  },
};

export const defaultNewId = () => randomUUID();
