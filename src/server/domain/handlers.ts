import { randomUUID } from 'node:crypto';
import type { OperationId } from '../../api/routes.js';
import type { ValidInputOf } from '../../api/io-types.js';
import type { Clock } from './clock.js';
import { utcDate } from './clock.js';
import type { ApiStore, Awaitable } from '../store/api-store.js';
import type { NurtureRecord, SocialPostRecord } from '../store/schema.js';
import type { AuthContext, ResolvedScope } from './auth.js';
import { HttpError, postNotFound } from './errors.js';
import { memoByGeneration } from './compute/memo.js';
import { Serialized } from './compute/serialized.js';
import { queryConfigViolation } from '../json.js';

/**
 * Reads are pure functions of the store (and of today, for finance): each result is kept
 * for the store's generation with its JSON bytes, so repeated reads between writes cost a
 * lookup and a socket write. Bounded: at most 64 results per generation.
 */
const readMemo = memoByGeneration<Serialized>(64);
const cachedRead = (store: ApiStore, key: readonly unknown[], compute: () => Promise<unknown>): Awaitable<Serialized> =>
  readMemo(store, JSON.stringify(key), async () => new Serialized(await compute()));
/** The sorted list behind the pages of one nurture listing (compute/nurture.ts), per generation. */
const sortedMemo = memoByGeneration<readonly NurtureRecord[]>(16);
const scopeKey = (ids: ReadonlySet<string>) => [...ids].sort().join(',');

/** Statuses from which a post may be (re)scheduled. */
const SCHEDULABLE = new Set<SocialPostRecord['status']>(['draft', 'scheduled']);

/** What a route handler gets: dependencies, the caller, its resolved scope and validated input. */
export interface HandlerContext {
  store: ApiStore;
  clock: Clock;
  auth: AuthContext;
  scope: ResolvedScope;
  newId: () => string;
}

/** Validated input of some operation, as operations.ts holds it before dispatch. */
export interface ValidInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

export type Issue = { path: string; message: string };

/** The handler of one operation, typed by that operation's validated input (the table's schemas). */
export interface Handler<I = ValidInput> {
  /** Checks that need the clock or cross-field rules, run in the validation step. */
  check?: (input: I, clock: Clock) => Issue[];
  run: (ctx: HandlerContext, input: I) => Promise<unknown> | unknown;
}

/**
 * One handler per operation: a plain function of (context, validated input) so that REST
 * routes and MCP tools run the same code after the same checks.
 * Each loads its computation (compute/) when it first runs, and with it the API schemas that
 * computation reads: a run loads only what its operations use (CONTRIBUTING.md, "How `cr` starts").
 */
export const handlers: { [Op in OperationId]: Handler<ValidInputOf<Op>> } = {
  getFinanceSummary: {
    run: ({ store, clock, auth }) => {
      const today = utcDate(clock.now());
      // A store that computes the summary itself keeps its own answers (api-store.ts).
      if (store.financeSummary) return store.financeSummary(auth.userId, today);
      return cachedRead(store, ['finance', auth.userId, today], async () => {
        const { financeSummary } = await import('./compute/finance.js');
        return financeSummary({ ...(await store.financeRows(auth.userId)), ownerId: auth.userId, today });
      });
    },
  },

  createAdCreative: {
    run: async ({ store, clock, scope, newId }, { body }) => {
      const websiteId = scope.websiteId!;
      const found = body.campaign_id ? await store.adCampaign(body.campaign_id) : undefined;
      const campaign = found && found.websiteId === websiteId ? found : undefined;
      const { newAdCreative, adCreativeView } = await import('./compute/writes.js');
      const record = newAdCreative(body, { id: newId(), now: clock.now(), websiteId, campaign });
      await store.commit([{ op: 'insert', collection: 'ad_creatives', record }]);
      return adCreativeView(record);
    },
  },

  createContentListener: {
    check: ({ body }) => {
      const problem = queryConfigViolation(body.query_config);
      return problem ? [{ path: 'query_config', message: problem }] : [];
    },
    run: async ({ store, clock, scope, newId }, { body }) => {
      const { newContentListener, contentListenerView } = await import('./compute/writes.js');
      const record = newContentListener(body, { id: newId(), now: clock.now(), websiteId: scope.websiteId! });
      await store.commit([{ op: 'insert', collection: 'content_listeners', record }]);
      return contentListenerView(record);
    },
  },

  scheduleSocialPost: {
    check: ({ body }, clock) =>
      Date.parse(body.scheduled_at) > clock.now().getTime()
        ? []
        : [{ path: 'scheduled_at', message: `scheduled_at must be in the future (now is ${clock.now().toISOString()})` }],
    run: async ({ store, clock, scope }, { params, body }) => {
      const post = await store.socialPost(params.id);
      if (!post || !scope.websiteIds.has(post.websiteId)) throw postNotFound();
      if (!SCHEDULABLE.has(post.status)) {
        throw new HttpError(409, `Post is ${post.status}; only draft or scheduled posts can be scheduled`, 'INVALID_STATE');
      }
      const scheduledAt = body.scheduled_at;
      await store.commit([
        { op: 'patch', collection: 'social_posts', id: post.id, patch: { status: 'scheduled', scheduledAt, updatedAt: clock.now().toISOString() } },
      ]);
      return { id: post.id, status: 'scheduled', scheduledAt };
    },
  },

  listLearnings: {
    run: ({ store, scope }, { query }) =>
      cachedRead(store, ['learnings', scopeKey(scope.websiteIds), query.dimension_type, query.limit], async () => {
        const { listLearnings } = await import('./compute/learnings.js');
        return listLearnings(await store.learnings(scope.websiteIds), {
          websiteIds: scope.websiteIds,
          dimensionType: query.dimension_type,
          limit: query.limit,
        });
      }),
  },

  listNurtureSequences: {
    run: ({ store, scope }, { query }) =>
      cachedRead(store, ['nurture', scopeKey(scope.websiteIds), query.status, query.limit, query.offset], async () => {
        const { nurturePage, sortedNurture } = await import('./compute/nurture.js');
        return nurturePage(
          await sortedMemo(store, JSON.stringify([scopeKey(scope.websiteIds), query.status]), async () =>
            sortedNurture(await store.nurtureSequences(scope.websiteIds), { websiteIds: scope.websiteIds, status: query.status }),
          ),
          { limit: query.limit, offset: query.offset },
        );
      }),
  },

  getGbpVisibility: {
    run: ({ store, scope }, { query }) =>
      cachedRead(store, ['visibility', scope.websiteId, query.keyword], async () => {
        const { visibility } = await import('./compute/visibility.js');
        return visibility(await store.visibilityScans(scope.websiteId!), { websiteId: scope.websiteId!, keyword: query.keyword });
      }),
  },

  listBrandSubjects: {
    run: ({ store, scope }) =>
      cachedRead(store, ['brand', scopeKey(scope.websiteIds)], async () => {
        const { listBrandSubjects } = await import('./compute/brand.js');
        return listBrandSubjects(await store.brandSubjects(scope.websiteIds), scope.websiteIds);
      }),
  },

  listCrmAgents: {
    run: ({ store, scope }) =>
      cachedRead(store, ['crm', scopeKey(scope.websiteIds)], async () => {
        const { listCrmAgents } = await import('./compute/crm.js');
        return listCrmAgents(await store.crmAgents(scope.websiteIds), scope.websiteIds);
      }),
  },
};

/**
 * The handler of an operation for the pipeline, which holds the input loosely: validate()
 * in operations.ts parsed it with that same operation's schemas, so it has the handler's type.
 */
export const handlerOf = (op: OperationId): Handler | undefined => handlers[op] as Handler<never> as Handler | undefined;

export const defaultNewId = () => randomUUID();
