import { COLLECTION_NAMES } from './schema.js';
import type { ApiKeyRecord, CollectionName, RecordOf, StoreData } from './schema.js';
import type { ApiStore, FinanceRows, WebsiteIds } from './api-store.js';

/** What the reads below need of a store whose records are all in this process's memory. */
export interface RecordSource {
  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[];
  get<C extends CollectionName>(collection: C, id: string): RecordOf<C> | undefined;
  /** Bumped by every commit (derived indexes key on it). */
  readonly generation: number;
}

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

  async snapshot(): Promise<Readonly<StoreData>> {
    const data: Record<string, unknown> = { version: 1 };
    for (const c of COLLECTION_NAMES) data[c] = this.src.list(c);
    return data as StoreData;
  }

  /** Keys by their sha256, rebuilt only when a commit changed the store. */
  keyBySha256(sha256: string) {
    if (!this.byHash || this.byHash.generation !== this.src.generation) {
      this.byHash = { generation: this.src.generation, map: new Map(this.src.list('api_keys').map((k) => [k.key_sha256, k])) };
    }
    return this.byHash.map.get(sha256);
  }
  apiKey(id: string) {
    return this.src.get('api_keys', id);
  }
  apiKeys() {
    return this.src.list('api_keys');
  }
  user(id: string) {
    return this.src.get('users', id);
  }
  firstUser() {
    return this.src.list('users')[0];
  }
  agency(id: string) {
    return this.src.get('agencies', id);
  }
  website(id: string) {
    return this.src.get('websites', id);
  }
  firstWebsite() {
    return this.src.list('websites')[0];
  }
  agencyWebsites(agencyId: string) {
    return this.src.list('websites').filter((w) => w.agency_id !== null && w.agency_id === agencyId);
  }
  financeRows(ownerId: string): FinanceRows {
    const entities = this.src.list('business_entities').filter((e) => e.owner_id === ownerId);
    const ids = new Set(entities.map((e) => e.id));
    return {
      entities,
      records: this.src.list('revenue_records').filter((r) => ids.has(r.entity_id)),
      costs: this.src.list('cost_items').filter((c) => ids.has(c.entity_id)),
    };
  }
  adCampaign(id: string) {
    return this.src.get('ad_campaigns', id);
  }
  socialPost(id: string) {
    return this.src.get('social_posts', id);
  }
  learnings(websiteIds: WebsiteIds) {
    return this.src.list('learnings').filter(inScope(websiteIds));
  }
  nurtureSequences(websiteIds: WebsiteIds) {
    return this.src.list('nurture_sequences').filter(inScope(websiteIds));
  }
  visibilityScans(websiteId: string) {
    return this.src.list('visibility_scans').filter((s) => s.websiteId === websiteId);
  }
  brandSubjects(websiteIds: WebsiteIds) {
    return this.src.list('brand_subjects').filter(inScope(websiteIds));
  }
  crmAgents(websiteIds: WebsiteIds) {
    return this.src.list('crm_agents').filter(inScope(websiteIds));
  }
}
