/**
 * Synthetic stores for the scale benchmarks (docs/store-format.md, src/server/store/schema.ts):
 * `n` revenue records and proportional other collections, one owner (the operator of a
 * local store), an admin key scoped to the first website. Deterministic for a given n.
 */
import { createHash, randomBytes } from 'node:crypto';

const DAY = 86_400_000;

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Stable UUID-shaped id from a label. */
const uid = (label) => {
  const h = createHash('sha1').update(label).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Proportions per revenue record (1k revenue records → 10 entities, 50 cost items, 100 listeners…). */
export const PROPORTIONS = {
  business_entities: 1 / 100,
  cost_items: 1 / 20,
  content_listeners: 1 / 10,
  social_posts: 1 / 10,
  nurture_sequences: 1 / 10,
  learnings: 1 / 20,
  ad_campaigns: 1 / 100,
};

export function generateStore(n, { now = new Date(), websites = 10 } = {}) {
  const rand = rng(n);
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const today = Date.parse(now.toISOString().slice(0, 10) + 'T00:00:00Z');
  const day = (k) => new Date(today + k * DAY).toISOString().slice(0, 10);
  const at = (k) => new Date(today + k * DAY + 9 * 3_600_000).toISOString();
  const count = (c) => Math.max(1, Math.round(n * PROPORTIONS[c]));

  const ownerId = uid(`user:owner:${n}`);
  const agencyId = uid(`agency:${n}`);
  const d = { version: 1 };
  d.users = [{ id: ownerId, email: 'ops@bench.example', name: 'Bench Operator' }];
  d.agencies = [{ id: agencyId, name: 'Bench Agency' }];
  d.websites = Array.from({ length: websites }, (_, i) => ({
    id: uid(`website:${n}:${i}`),
    name: `Site ${i}`,
    domain: `site${i}.example`,
    agency_id: agencyId,
    owner_id: ownerId,
    location: { lat: 40 + i / 10, lng: -100 - i / 10 },
  }));
  const websiteId = d.websites[0].id;
  const key = `cr_${randomBytes(20).toString('hex')}`;
  d.api_keys = [
    {
      id: uid(`key:${n}`),
      name: 'bench admin',
      key_sha256: createHash('sha256').update(key).digest('hex'),
      user_id: ownerId,
      role: 'admin',
      website_id: websiteId,
      agency_id: null,
      created_at: at(-30),
      revoked_at: null,
    },
  ];

  const nEntities = count('business_entities');
  d.business_entities = Array.from({ length: nEntities }, (_, i) => ({
    id: uid(`entity:${n}:${i}`),
    name: `Entity ${String(i).padStart(5, '0')} LLC`,
    accounting_tenant_id: i % 3 ? null : `xero-${i}`,
    owner_id: ownerId,
    created_at: at(-700 + (i % 300)),
  }));
  const freqs = ['monthly', 'monthly', 'quarterly', 'semi_annual', 'annual', null];
  const statuses = ['active', 'active', 'active', 'active', 'active', 'active', 'active', 'paused', 'churned', 'completed'];
  const types = ['recurring', 'recurring', 'recurring', 'project', 'one_time'];
  d.revenue_records = Array.from({ length: n }, (_, i) => {
    const status = pick(statuses);
    const next = rand() < 0.9 ? Math.floor(rand() * 365) - 3 : null; // ~2.7% fall in the 7-day alert window
    const renewal = rand() < 0.6 ? Math.floor(rand() * 400) - 30 : null;
    return {
      id: uid(`revenue:${n}:${i}`),
      entity_id: d.business_entities[i % nEntities].id,
      website_id: i % 4 === 0 ? d.websites[i % websites].id : null,
      client_name: `Client ${i % Math.max(1, Math.floor(n / 3))}`,
      type: pick(types),
      amount_cents: 10_000 + Math.floor(rand() * 990_000),
      currency: 'USD',
      billing_frequency: pick(freqs),
      next_invoice_date: next === null ? null : day(next),
      last_invoiced_at: next === null ? null : at(next - 30),
      status,
      renewal_date: renewal === null ? null : day(renewal),
      payment_terms: 'net 15',
      started_at: at(-300),
      ended_at: status === 'churned' || status === 'completed' ? at(-20) : null,
      notes: i % 10 === 0 ? 'Upsell candidate' : null,
      product_line_id: null,
      created_at: at(-300),
      updated_at: at(-3),
    };
  });
  const cats = ['ai', 'software', 'staff', 'other'];
  d.cost_items = Array.from({ length: count('cost_items') }, (_, i) => ({
    id: uid(`cost:${n}:${i}`),
    entity_id: d.business_entities[i % nEntities].id,
    category: cats[i % 4],
    monthly_cents: 1000 + Math.floor(rand() * 100_000),
    description: `Cost line ${i}`,
  }));
  d.ad_campaigns = Array.from({ length: count('ad_campaigns') }, (_, i) => ({
    id: uid(`campaign:${n}:${i}`),
    websiteId: d.websites[i % websites].id,
    name: `Campaign ${i}`,
    platform: pick(['google', 'meta', 'pinterest']),
  }));
  d.content_listeners = Array.from({ length: count('content_listeners') }, (_, i) => ({
    id: uid(`listener:${n}:${i}`),
    websiteId: d.websites[i % websites].id,
    name: `Listener ${i}`,
    sourceType: 'reddit',
    queryConfig: { subreddit: 'smallbusiness', keywords: ['seo', `topic${i % 50}`] },
    pollInterval: '6h',
    nextPollAt: at(1),
    lastPolledAt: at(0),
    lastItemCount: i % 20,
    enabled: i % 5 !== 0,
    createdAt: at(-60),
    updatedAt: at(-1),
  }));
  const postStatuses = ['draft', 'scheduled', 'publishing', 'published', 'failed'];
  d.social_posts = Array.from({ length: count('social_posts') }, (_, i) => {
    const status = postStatuses[i % 5];
    return {
      id: uid(`post:${n}:${i}`),
      websiteId: d.websites[i % websites].id,
      status,
      content: `Post number ${i}: tips and news for our customers.`,
      scheduledAt: status === 'draft' ? null : at((i % 30) - 10),
      createdAt: at(-20),
      updatedAt: at(-2),
    };
  });
  const nStatuses = ['draft', 'active', 'paused', 'archived'];
  d.nurture_sequences = Array.from({ length: count('nurture_sequences') }, (_, i) => ({
    contentId: uid(`nurture:${n}:${i}`),
    websiteId: d.websites[i % websites].id,
    title: `Sequence ${i}`,
    status: nStatuses[i % 4],
    steps: Array.from({ length: 1 + (i % 5) }, (_, s) => ({ order: s + 1, channel: s % 2 ? 'sms' : 'email', delayHours: 24 * s })),
    createdAt: at(-200 + (i % 150)),
    updatedAt: new Date(today - (i % 5000) * 60_000).toISOString(),
  }));
  const lStatuses = ['candidate', 'testing', 'confirmed', 'rejected', 'archived'];
  d.learnings = Array.from({ length: count('learnings') }, (_, i) => ({
    id: uid(`learning:${n}:${i}`),
    websiteId: d.websites[i % websites].id,
    channel: pick(['meta', 'google', 'email']),
    dimensionType: pick(['hook', 'angle', 'offer', 'cta']),
    dimensionValue: 'question opener',
    summary: `Variant ${i} beat control`,
    evidenceCount: 1 + (i % 6),
    confidenceScore: Math.round(rand() * 100) / 100,
    status: lStatuses[i % 5],
    createdAt: at(-60 + (i % 60)),
  }));
  for (const c of ['ad_creatives', 'visibility_scans', 'brand_subjects', 'crm_agents']) d[c] = [];
  return { data: d, key, websiteId, ownerId };
}

/** The store file text, as the server writes it (pretty-printed, like `serialize`). */
export const storeText = (data) => JSON.stringify(data, null, 2) + '\n';
