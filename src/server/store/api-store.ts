import type { Mutation } from './batch.js';
import type { Readiness } from './readiness.js';
import type { FinanceSummary } from '../../api/schemas/finance.js';
import type { Serialized } from '../domain/compute/serialized.js';
import type {
  AdCampaignRecord,
  AgencyRecord,
  ApiKeyRecord,
  BrandSubjectRecord,
  CostItemRecord,
  CrmAgentRecord,
  RecordOf,
  StoreData,
  LearningRecord,
  NurtureRecord,
  SocialPostRecord,
  UserRecord,
  VisibilityScanRecord,
  WebsiteRecord,
} from './schema.js';

/**
 * A value, or a promise of it: what the store's reads return. A store on another process (a
 * database) answers with promises; one holding its records in this process answers at once,
 * and the request pipeline then goes on without waiting a turn of the event loop per step
 * (a few microseconds each, most of a cached read's cost: docs/benchmarks.md, "Server throughput").
 */
export type Awaitable<T> = T | Promise<T>;

/** Continues with `f` at once when `value` is there, else once its promise resolves. */
export const andThen = <T, R>(value: Awaitable<T>, f: (v: T) => Awaitable<R>): Awaitable<R> => (value instanceof Promise ? value.then(f) : f(value));

/** One key's rate-limit window (docs/api-decisions.md §3): when it started (epoch ms) and the requests counted in it. */
export interface RateWindow {
  start: number;
  count: number;
}

/** The rows behind one owner's finance summary: their entities, and the revenue and costs of those entities. */
export interface FinanceRows {
  entities: readonly RecordOf<'business_entities'>[];
  records: readonly RecordOf<'revenue_records'>[];
  costs: readonly CostItemRecord[];
}

/** The websites a read covers (a key's resolved scope, src/server/domain/auth.ts). */
export type WebsiteIds = ReadonlySet<string>;

/**
 * What the server asks of a store (docs/api-decisions.md §7): the scoped lists and lookups
 * the handlers, the key check and the scope rules need, the writes, and the rate-limit
 * counters. Reads may answer asynchronously (Awaitable) and writes always do, so a store on
 * another process (a database) can stand behind it as well as the JSON file (json-store.ts) or memory (memory-store.ts).
 * test/store/contract.test.ts holds every implementation to the same answers.
 *
 * Reads return committed state only. Records returned are the store's: treat them as read-only.
 */
export interface ApiStore {
  /** Where the store lives, in words, for messages (a path, "(memory)"); never a secret. */
  readonly location: string;
  /**
   * A number that changes with every commit, when this process is the store's only writer
   * (results computed from the store may be kept until it changes); undefined when other
   * processes may write (nothing may be kept across requests then).
   */
  readonly version: number | undefined;

  /** The key whose sha256 (hex) this is, revoked or not. */
  keyBySha256(sha256: string): Awaitable<ApiKeyRecord | undefined>;
  apiKey(id: string): Awaitable<ApiKeyRecord | undefined>;
  /** Every key, in the order they were made (`cr local keys list`). */
  apiKeys(): Awaitable<readonly ApiKeyRecord[]>;

  user(id: string): Awaitable<UserRecord | undefined>;
  /** The first user of the store (a new key's default owner). */
  firstUser(): Awaitable<UserRecord | undefined>;
  agency(id: string): Awaitable<AgencyRecord | undefined>;
  website(id: string): Awaitable<WebsiteRecord | undefined>;
  /** The first website of the store (what `cr local init` and --local scope a new key to). */
  firstWebsite(): Awaitable<WebsiteRecord | undefined>;
  /** The websites of an agency, in store order. */
  agencyWebsites(agencyId: string): Awaitable<readonly WebsiteRecord[]>;

  /**
   * Every record of every collection, in store order: what local administration reads whole
   * (`cr local seed` checks references against it, `export` and `copy` print or carry it).
   * Never on a request's path.
   */
  snapshot(): Promise<Readonly<StoreData>>;

  /** One owner's business entities, and the revenue records and cost items of those entities. */
  financeRows(ownerId: string): Awaitable<FinanceRows>;
  /**
   * The finance summary computed by the store itself, with its JSON text, for a store that can
   * do it without reading every row and keeps its own answers (the PostgreSQL store's running
   * totals and finance version, src/server/store-pg/finance-cache.ts). Optional: without it
   * the handler computes from financeRows(). Same answer either way.
   */
  financeSummary?(ownerId: string, today: string): Promise<Serialized<FinanceSummary>>;
  adCampaign(id: string): Awaitable<AdCampaignRecord | undefined>;
  socialPost(id: string): Awaitable<SocialPostRecord | undefined>;
  learnings(websiteIds: WebsiteIds): Awaitable<readonly LearningRecord[]>;
  nurtureSequences(websiteIds: WebsiteIds): Awaitable<readonly NurtureRecord[]>;
  visibilityScans(websiteId: string): Awaitable<readonly VisibilityScanRecord[]>;
  brandSubjects(websiteIds: WebsiteIds): Awaitable<readonly BrandSubjectRecord[]>;
  crmAgents(websiteIds: WebsiteIds): Awaitable<readonly CrmAgentRecord[]>;

  /**
   * Applies the mutations all or none; resolves once they are durable and visible to every
   * read. A patch of a missing record rejects (nothing applied); a store that cannot write
   * rejects with StoreUnavailableError, one past its size cap with StoreFullError (errors.ts).
   * The store keeps its own copy: the caller's objects stay the caller's to change.
   */
  commit(mutations: Mutation[]): Promise<void>;

  /**
   * Counts one request of `keyId` at `now` (epoch ms), atomically: a window that started
   * more than `windowMs` ago, or in the future, is replaced by one starting at `now`.
   * Returns the window with this request counted.
   */
  rateHit(keyId: string, now: number, windowMs: number): Awaitable<RateWindow>;
  /** The key's current window at `now`, without counting; undefined when none is running. */
  ratePeek(keyId: string, now: number, windowMs: number): Awaitable<RateWindow | undefined>;
  /** Forgets the windows of these keys (or every key's): their next request starts a new window (`cr local reset`). */
  rateForget(keyIds: readonly string[] | 'all'): Awaitable<void>;

  /** Whether this store can serve correct data now (readiness.ts): what `GET /readyz` answers. */
  readiness(): Promise<Readiness>;

  /** Finishes pending writes and lets go of the store (its lock, its connections). */
  close(): Promise<void>;
}

/** Whether a window still counts at `now`: started at most one window ago, and not in the future (docs/api-decisions.md §9). */
export const windowCurrent = (w: RateWindow, now: number, windowMs: number) => w.start <= now && now < w.start + windowMs;
