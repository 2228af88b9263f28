import { COLLECTION_NAMES } from './collections.js';
import type { ApiKeyRecord, CollectionName, RecordOf, StoreData } from './schema.js';
import { andThen } from './api-store.js';
import type { ApiStore, Awaitable, FinanceRows, WebsiteIds } from './api-store.js';

/** What the reads below need of a store whose records are all in this process's memory. */
export interface RecordSource {
  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[];
  get<C extends CollectionName>(collection: C, id: string): RecordOf<C> | undefined;
  /** Bumped by every commit (derived indexes key on it). */
  readonly generation: number;
  /**
   * For a store that validates its records on first use (Store.ready, collection-checks.ts):
   * undefined when these collections may be read now, else a promise that resolves once they
   * may (or rejects with the store's StoreError). Absent: every record is valid already.
   */
  ready?(collections: readonly CollectionName[]): Promise<void> | undefined;
}

// The collections each read below uses, named once per read.
const KEYS: readonly CollectionName[] = ['api_keys'];
const USERS: readonly CollectionName[] = ['users'];
const AGENCIES: readonly CollectionName[] = ['agencies'];
const WEBSITES: readonly CollectionName[] = ['websites'];
const FINANCE: readonly CollectionName[] = ['business_entities', 'revenue_records', 'cost_items'];
const CAMPAIGNS: readonly CollectionName[] = ['ad_campaigns'];
const POSTS: readonly CollectionName[] = ['social_posts'];
const LEARNINGS: readonly CollectionName[] = ['learnings'];
const NURTURE: readonly CollectionName[] = ['nurture_sequences'];
const SCANS: readonly CollectionName[] = ['visibility_scans'];
const BRAND: readonly CollectionName[] = ['brand_subjects'];
const CRM: readonly CollectionName[] = ['crm_agents'];

type Reads = Omit<ApiStore, 'location' | 'version' | 'commit' | 'rateHit' | 'ratePeek' | 'rateForget' | 'readiness' | 'close'>;

const inScope =
  (ids: WebsiteIds) =>
  <T extends { websiteId: string }>(r: T) =>
    ids.has(r.websiteId);

/**
 * The scoped lists and lookups of the store interface (api-store.ts) over records held in
 * memory: shared by the JSON file store (json-store.ts) and the memory store
 * (memory-store.ts), so the two answer alike by construction and differ only in how they
 * keep what they commit. They answer at once (no promise): the records are here.
 */
export class DataReads implements Reads {
  private byHash: { generation: number; map: Map<string, ApiKeyRecord> } | undefined;

  constructor(protected readonly src: RecordSource) {}

  /** `read` at once when its collections may be read now (always, but on a store's first use of one), else once they may. */
  private after<T>(collections: readonly CollectionName[], read: () => T): Awaitable<T> {
    const pending = this.src.ready?.(collections);
    return pending ? andThen(pending, read) : read();
  }

  async snapshot(): Promise<Readonly<StoreData>> {
    await this.src.ready?.(COLLECTION_NAMES);
    const data: Record<string, unknown> = { version: 1 };
    for (const c of COLLECTION_NAMES) data[c] = this.src.list(c);
    return data as StoreData;
  }

  /** Keys by their sha256, rebuilt only when a commit changed the store. */
  keyBySha256(sha256: string) {
    return this.after(KEYS, () => {
      if (!this.byHash || this.byHash.generation !== this.src.generation) {
        this.byHash = { generation: this.src.generation, map: new Map(this.src.list('api_keys').map((k) => [k.key_sha256, k])) };
      }
      return this.byHash.map.get(sha256);
    });
  }
  apiKey(id: string) {
    return this.after(KEYS, () => this.src.get('api_keys', id));
  }
  apiKeys() {
    return this.after(KEYS, () => this.src.list('api_keys'));
  }
  user(id: string) {
    return this.after(USERS, () => this.src.get('users', id));
  }
  firstUser() {
    return this.after(USERS, () => this.src.list('users')[0]);
  }
  agency(id: string) {
    return this.after(AGENCIES, () => this.src.get('agencies', id));
  }
  website(id: string) {
    return this.after(WEBSITES, () => this.src.get('websites', id));
  }
  firstWebsite() {
    return this.after(WEBSITES, () => this.src.list('websites')[0]);
  }
  agencyWebsites(agencyId: string) {
    return this.after(WEBSITES, () => this.src.list('websites').filter((w) => w.agency_id !== null && w.agency_id === agencyId));
  }
  financeRows(ownerId: string): Awaitable<FinanceRows> {
    return this.after(FINANCE, () => {
      const entities = this.src.list('business_entities').filter((e) => e.owner_id === ownerId);
      const ids = new Set(entities.map((e) => e.id));
      return {
        entities,
        records: this.src.list('revenue_records').filter((r) => ids.has(r.entity_id)),
        costs: this.src.list('cost_items').filter((c) => ids.has(c.entity_id)),
      };
    });
  }
  adCampaign(id: string) {
    return this.after(CAMPAIGNS, () => this.src.get('ad_campaigns', id));
  }
  socialPost(id: string) {
    return this.after(POSTS, () => this.src.get('social_posts', id));
  }
  learnings(websiteIds: WebsiteIds) {
    return this.after(LEARNINGS, () => this.src.list('learnings').filter(inScope(websiteIds)));
  }
  nurtureSequences(websiteIds: WebsiteIds) {
    return this.after(NURTURE, () => this.src.list('nurture_sequences').filter(inScope(websiteIds)));
  }
  visibilityScans(websiteId: string) {
    return this.after(SCANS, () => this.src.list('visibility_scans').filter((s) => s.websiteId === websiteId));
  }
  brandSubjects(websiteIds: WebsiteIds) {
    return this.after(BRAND, () => this.src.list('brand_subjects').filter(inScope(websiteIds)));
  }
  crmAgents(websiteIds: WebsiteIds) {
    return this.after(CRM, () => this.src.list('crm_agents').filter(inScope(websiteIds)));
  }
}
