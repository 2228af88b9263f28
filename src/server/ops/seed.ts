import type { Clock } from '../domain/clock.js';
import { utcDate } from '../domain/clock.js';
import { emptyStore } from '../store/collections.js';
import type { StoreData } from '../store/schema.js';
import { stableId } from './demo-id.js';
import { demoBrandSubjects, demoCrmAgents, demoVisibilityScans } from './demo-brand.js';

export { stableId };

/** Ids of the demo data that docs and tests refer to. */
export const DEMO = {
  ownerUserId: stableId('user:owner'),
  otherUserId: stableId('user:other'),
  agencyId: stableId('agency:northwind'),
  otherAgencyId: stableId('agency:bluepeak'),
  websiteId: stableId('website:harbor'),
  secondWebsiteId: stableId('website:maple'),
  otherAgencyWebsiteId: stableId('website:summit'),
  draftPostId: stableId('post:draft-1'),
  scheduledPostId: stableId('post:scheduled-1'),
  publishedPostId: stableId('post:published-1'),
  campaignId: stableId('campaign:spring'),
} as const;

const DAY = 86_400_000;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Realistic demo data across every collection, with dates relative to the clock: two
 * agencies, several websites, one owner, mixed billing frequencies (including null), overdue
 * and upcoming invoices, posts in every state, learnings of every status, ~120 nurture
 * sequences, a full 9x9 visibility scan, brand subjects with inline image data and CRM
 * agents with long prompts.
 */
export function demoStore(clock: Clock): StoreData {
  const now = clock.now();
  const today = utcDate(now);
  const day = (n: number) => utcDate(new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY));
  const at = (n: number, hour = 9) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY + hour * 3_600_000).toISOString();
  const rand = rng(42);
  const d = emptyStore();
  const W1 = DEMO.websiteId;
  const W2 = DEMO.secondWebsiteId;
  const W3 = DEMO.otherAgencyWebsiteId;
  const W4 = stableId('website:solo');

  d.users = [
    { id: DEMO.ownerUserId, email: 'ada@northwind.example', name: 'Ada Lindqvist' },
    { id: DEMO.otherUserId, email: 'ben@bluepeak.example', name: 'Ben Okafor' },
  ];
  d.agencies = [
    { id: DEMO.agencyId, name: 'Northwind Digital' },
    { id: DEMO.otherAgencyId, name: 'Bluepeak Studio' },
  ];
  d.websites = [
    {
      id: W1,
      name: 'Harbor Dental',
      domain: 'harbordental.example',
      agency_id: DEMO.agencyId,
      owner_id: DEMO.ownerUserId,
      location: { lat: 47.6062, lng: -122.3321 },
    },
    {
      id: W2,
      name: 'Maple Street Bakery',
      domain: 'maplebakery.example',
      agency_id: DEMO.agencyId,
      owner_id: DEMO.ownerUserId,
      location: { lat: 45.5152, lng: -122.6784 },
    },
    {
      id: W3,
      name: 'Summit Legal',
      domain: 'summitlegal.example',
      agency_id: DEMO.otherAgencyId,
      owner_id: DEMO.otherUserId,
      location: { lat: 39.7392, lng: -104.9903 },
    },
    { id: W4, name: 'Ada Consulting', domain: 'ada.example', agency_id: null, owner_id: DEMO.ownerUserId, location: null },
  ];

  const E1 = stableId('entity:northwind');
  const E2 = stableId('entity:ada-consulting');
  const E3 = stableId('entity:lindqvist-labs');
  const E4 = stableId('entity:bluepeak');
  d.business_entities = [
    { id: E1, name: 'Northwind Digital LLC', accounting_tenant_id: 'xero-7f3a21', owner_id: DEMO.ownerUserId, created_at: at(-700) },
    { id: E2, name: 'Ada Consulting', accounting_tenant_id: null, owner_id: DEMO.ownerUserId, created_at: at(-400) },
    { id: E3, name: 'Lindqvist Labs', accounting_tenant_id: null, owner_id: DEMO.ownerUserId, created_at: at(-90) },
    { id: E4, name: 'Bluepeak Studio Inc', accounting_tenant_id: 'qbo-1182', owner_id: DEMO.otherUserId, created_at: at(-500) },
  ];
  let rr = 0;
  const rec = (
    entity: string,
    client: string,
    o: {
      type?: 'recurring' | 'project' | 'one_time';
      amount: number;
      freq?: 'monthly' | 'quarterly' | 'semi_annual' | 'annual' | null;
      next?: number | null;
      status?: 'active' | 'paused' | 'churned' | 'completed';
      renewal?: number | null;
      website?: string | null;
    },
  ) => ({
    id: stableId(`revenue:${++rr}`),
    entity_id: entity,
    website_id: o.website ?? null,
    client_name: client,
    type: o.type ?? 'recurring',
    amount_cents: o.amount,
    currency: 'USD',
    billing_frequency: o.freq === undefined ? 'monthly' : o.freq,
    next_invoice_date: o.next === null || o.next === undefined ? null : day(o.next),
    last_invoiced_at: o.next === null || o.next === undefined ? null : at(o.next - 30),
    status: o.status ?? 'active',
    renewal_date: o.renewal === null || o.renewal === undefined ? null : day(o.renewal),
    payment_terms: 'net 15',
    started_at: at(-300),
    ended_at: o.status === 'churned' || o.status === 'completed' ? at(-20) : null,
    notes: null,
    product_line_id: null,
    created_at: at(-300),
    updated_at: at(-3),
  });
  d.revenue_records = [
    rec(E1, 'Harbor Dental', { amount: 250000, freq: 'monthly', next: -3, renewal: 120, website: W1 }),
    rec(E1, 'Maple Street Bakery', { amount: 360000, freq: 'quarterly', next: 5, renewal: 45, website: W2 }),
    rec(E1, 'Cedar Fitness', { amount: 1000000, freq: 'annual', next: 30, renewal: 200 }),
    rec(E1, 'Orchid Spa', { amount: 99999, freq: 'semi_annual', next: 7, renewal: 15 }),
    rec(E1, 'Pine Auto', { amount: 150000, freq: null, next: 8 }),
    rec(E1, 'Old Mill Cafe', { amount: 80000, status: 'paused', next: 2 }),
    rec(E1, 'Riverbend Hotel', { amount: 120000, status: 'churned', next: -10 }),
    rec(E1, 'Harbor Dental', { type: 'project', amount: 450000, freq: null, next: 1, website: W1 }),
    rec(E2, 'Lakeside Clinic', { amount: 175050, freq: 'monthly', next: 0, renewal: -5 }),
    rec(E2, 'Lakeside Clinic', { type: 'one_time', amount: 30000, freq: null, next: null }),
    rec(E2, 'Granite Builders', { amount: 600000, freq: 'semi_annual', next: 60, status: 'completed' }),
    rec(E3, 'Aurora Pets', { amount: 45000, freq: 'monthly', next: 12, renewal: 365 }),
    rec(E4, 'Summit Legal', { amount: 500000, freq: 'monthly', next: 1, website: W3 }),
  ];
  let ci = 0;
  const cost = (entity: string, category: 'ai' | 'software' | 'staff' | 'other', cents: number, description: string) => ({
    id: stableId(`cost:${++ci}`),
    entity_id: entity,
    category,
    monthly_cents: cents,
    description,
  });
  d.cost_items = [
    cost(E1, 'ai', 42000, 'LLM API usage'),
    cost(E1, 'ai', 9900, 'Image generation'),
    cost(E1, 'software', 19900, 'CRM seats'),
    cost(E1, 'staff', 450000, 'Contract writers'),
    cost(E2, 'software', 2900, 'Scheduling tool'),
    cost(E2, 'other', 12000, 'Coworking desk'),
    cost(E4, 'ai', 30000, 'LLM API usage'),
  ];

  d.ad_campaigns = [
    { id: DEMO.campaignId, websiteId: W1, name: 'Spring whitening promo', platform: 'google' },
    { id: stableId('campaign:newpatients'), websiteId: W1, name: 'New patient offer', platform: 'meta' },
    { id: stableId('campaign:bakery'), websiteId: W2, name: 'Sourdough launch', platform: 'pinterest' },
  ];
  d.ad_creatives = [
    {
      id: stableId('creative:1'),
      platform: 'google',
      adFormat: 'responsive_search',
      name: 'Whitening - headline set A',
      campaignId: DEMO.campaignId,
      campaignName: 'Spring whitening promo',
      status: 'active',
      source: 'manual',
      destinationUrl: 'https://harbordental.example/whitening',
      imageUrls: [],
      impressions: 18234,
      clicks: 912,
      spend: 640.5,
      conversions: 37,
      ctr: 0.05,
      roas: 3.4,
      optimizationScore: 0.82,
      lastEvalScore: 0.77,
      createdAt: at(-40),
      websiteId: W1,
      headline: 'Brighter smile in one visit',
      description: 'Professional whitening, same-day appointments.',
      productLineId: null,
    },
  ];
  d.content_listeners = [
    {
      id: stableId('listener:1'),
      websiteId: W1,
      name: 'r/Dentistry questions',
      sourceType: 'reddit',
      queryConfig: { subreddit: 'Dentistry', keywords: ['whitening', 'veneers'] },
      pollInterval: '6h',
      nextPollAt: at(0, 15),
      lastPolledAt: at(0, 9),
      lastItemCount: 14,
      enabled: true,
      createdAt: at(-60),
      updatedAt: at(0, 9),
    },
    {
      id: stableId('listener:2'),
      websiteId: W2,
      name: 'Baking news',
      sourceType: 'rss',
      queryConfig: { feed_url: 'https://news.example/baking.rss' },
      pollInterval: '24h',
      nextPollAt: at(1),
      lastPolledAt: null,
      lastItemCount: 0,
      enabled: false,
      createdAt: at(-10),
      updatedAt: at(-2),
    },
  ];

  const post = (
    id: string,
    websiteId: string,
    status: 'draft' | 'scheduled' | 'publishing' | 'published' | 'failed',
    content: string,
    scheduled: number | null,
  ) => ({
    id,
    websiteId,
    status,
    content,
    scheduledAt: scheduled === null ? null : at(scheduled, 15),
    createdAt: at(-5),
    updatedAt: at(-1),
  });
  d.social_posts = [
    post(DEMO.draftPostId, W1, 'draft', 'Did you know? Flossing daily cuts gum disease risk in half. 🦷', null),
    post(stableId('post:draft-2'), W1, 'draft', 'Meet Dr. Reyes, our new orthodontist.', null),
    post(DEMO.scheduledPostId, W1, 'scheduled', 'Spring whitening special: 20% off through April.', 3),
    post(DEMO.publishedPostId, W1, 'published', 'We are open Saturdays now!', -2),
    post(stableId('post:failed-1'), W1, 'failed', 'Holiday hours update', -1),
    post(stableId('post:publishing-1'), W1, 'publishing', 'Live Q&A in 10 minutes', 0),
    post(stableId('post:draft-bakery'), W2, 'draft', 'Fresh sourdough every morning at 7.', null),
    post(stableId('post:draft-summit'), W3, 'draft', 'Estate planning checklist for 2025.', null),
  ];

  const learningStatuses = ['candidate', 'testing', 'confirmed', 'rejected', 'archived'] as const;
  const dims = ['hook', 'angle', 'offer', 'story', 'audience', 'format', 'cta'] as const;
  const channels = ['meta', 'google', 'email', 'instagram'];
  d.learnings = [];
  for (let i = 0; i < 30; i++) {
    const status = i < 16 ? 'confirmed' : learningStatuses[i % learningStatuses.length]!;
    d.learnings.push({
      id: stableId(`learning:${i}`),
      websiteId: i % 6 === 5 ? W2 : W1,
      channel: channels[i % channels.length]!,
      dimensionType: dims[i % dims.length]!,
      dimensionValue: ['question opener', 'price anchor', 'free consult', 'patient story', 'parents 30-45', 'short video', 'book now'][i % 7]!,
      summary: `Variant ${i + 1} beat control in ${2 + (i % 4)} independent tests`,
      evidenceCount: i % 8 === 3 ? 1 : 2 + (i % 5),
      confidenceScore: Math.round((0.55 + rand() * 0.44) * 100) / 100,
      status,
      createdAt: at(-60 + i),
    });
  }

  d.nurture_sequences = [];
  const nurtureStatuses = ['draft', 'active', 'paused', 'archived'] as const;
  for (let i = 0; i < 120; i++) {
    const steps = Array.from({ length: 1 + (i % 7) }, (_, s) => ({ order: s + 1, channel: s % 2 ? 'sms' : 'email', delayHours: 24 * s }));
    d.nurture_sequences.push({
      contentId: stableId(`nurture:${i}`),
      websiteId: W1,
      title: `${['Welcome', 'Recall reminder', 'Whitening follow-up', 'Review request', 'Win-back'][i % 5]} #${i + 1}`,
      status: nurtureStatuses[i % 4]!,
      steps,
      createdAt: at(-200 + i),
      updatedAt: at(-120 + i, i % 24),
    });
  }
  for (let i = 0; i < 4; i++) {
    d.nurture_sequences.push({
      contentId: stableId(`nurture:bakery:${i}`),
      websiteId: W2,
      title: `Loyalty drip ${i + 1}`,
      status: 'active',
      steps: [{ order: 1 }, { order: 2 }],
      createdAt: at(-30 + i),
      updatedAt: at(-10 + i),
    });
  }

  d.visibility_scans = demoVisibilityScans(W1, day, rand);
  d.brand_subjects = demoBrandSubjects(W1, W2);
  d.crm_agents = demoCrmAgents(W1, W2, at);
  return d;
}
