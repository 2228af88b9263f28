import { createHash } from 'node:crypto';
import { GRID_SIZE } from '../api/schemas/visibility.js';
import type { Clock } from './clock.js';
import { utcDate } from './clock.js';
import { emptyStore } from './store/schema.js';
import type { StoreData } from './store/schema.js';

/** A stable UUID (v4 layout) derived from a label, so demo ids are the same on every run. */
export function stableId(label: string): string {
  const h = createHash('sha256').update(`cr-demo:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

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

  const grid = (center: { lat: number; lng: number }, kw: number) => {
    const points: { lat: number; lng: number; rank: number | null }[] = [];
    const stepLat = 25 / 69 / 4; // 25 miles radius over 4 steps each side
    const stepLng = stepLat / Math.cos((center.lat * Math.PI) / 180);
    for (let r = 0; r < GRID_SIZE; r++) {
      for (let c = 0; c < GRID_SIZE; c++) {
        const dist = Math.max(Math.abs(r - 4), Math.abs(c - 4));
        const base = 1 + dist * (2 + kw) + Math.floor(rand() * 3);
        points.push({
          lat: Math.round((center.lat + (r - 4) * stepLat) * 1e6) / 1e6,
          lng: Math.round((center.lng + (c - 4) * stepLng) * 1e6) / 1e6,
          rank: base > 20 ? null : base,
        });
      }
    }
    return points;
  };
  const loc = { lat: 47.6062, lng: -122.3321 };
  const keywords = ['dentist near me', 'teeth whitening', 'emergency dentist'];
  d.visibility_scans = [
    { websiteId: W1, scanDate: day(-37), keywords: keywords.map((k, i) => ({ keyword: k, gridPoints: grid(loc, i + 3) })) },
    { websiteId: W1, scanDate: day(-7), keywords: keywords.map((k, i) => ({ keyword: k, gridPoints: grid(loc, i + 2) })) },
  ];

  const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  d.brand_subjects = [
    {
      id: stableId('brand:molar'),
      websiteId: W1,
      subjectName: 'Molly the Molar',
      subjectDescription: 'Friendly cartoon tooth mascot used in kids campaigns.',
      subjectType: 'mascot',
      identityTraits: 'cheerful, reassuring, a little goofy',
      appearanceDetails: 'white rounded tooth, big blue eyes, tiny toothbrush',
      distinguishingFeatures: 'sparkle on the top left corner',
      styleCharacteristics: 'flat vector, thick outlines',
      colorProfile: ['#FFFFFF', '#1E88E5', '#FFC107'],
      defaultScale: 'medium',
      preferredPlacement: 'bottom right',
      compositingNotes: 'keep a soft drop shadow',
      status: 'active',
      referenceImages: [
        { imageId: 'img-molly-1', publicUrl: 'https://cdn.example/brand/molly-front.png', label: 'front', isPrimary: true },
        { imageId: 'img-molly-2', publicUrl: null, base64: b64, label: 'side (upload pending)', isPrimary: false },
        { imageId: 'img-molly-3', publicUrl: `data:image/png;base64,${b64}`, label: 'inline sketch', isPrimary: false },
      ],
      brandMark: { imageId: 'mark-harbor', publicUrl: 'https://cdn.example/brand/harbor-mark.svg' },
    },
    {
      id: stableId('brand:clinic'),
      websiteId: W1,
      subjectName: 'Harbor clinic front desk',
      subjectDescription: 'The reception area, used as a location backdrop.',
      subjectType: 'location',
      identityTraits: 'calm, bright, modern',
      appearanceDetails: 'light oak desk, teal accent wall',
      distinguishingFeatures: 'porthole window',
      styleCharacteristics: 'photographic, natural light',
      colorProfile: ['#E0F2F1', '#00897B'],
      defaultScale: 'large',
      preferredPlacement: 'background',
      compositingNotes: 'avoid faces of staff',
      status: 'active',
      referenceImages: [{ imageId: 'img-desk-1', publicUrl: 'https://cdn.example/brand/desk.jpg', label: 'wide', isPrimary: true }],
      brandMark: { imageId: 'mark-inline', publicUrl: `data:image/svg+xml;base64,${b64}`, base64: b64 },
    },
    {
      id: stableId('brand:loaf'),
      websiteId: W2,
      subjectName: 'Signature sourdough loaf',
      subjectDescription: 'Hero product shot.',
      subjectType: 'product',
      identityTraits: 'rustic, artisanal',
      appearanceDetails: 'dark crust, ear on top, flour dusting',
      distinguishingFeatures: 'maple leaf scoring',
      styleCharacteristics: 'warm, close-up',
      colorProfile: ['#8D6E63', '#FFF8E1'],
      defaultScale: 'small',
      preferredPlacement: 'center',
      compositingNotes: '',
      status: 'draft',
      referenceImages: [{ imageId: 'img-loaf-1', base64: b64, label: 'studio', isPrimary: true }],
      brandMark: null,
    },
  ];

  const longPrompt = (name: string) =>
    `You are ${name}, the front-desk assistant of Harbor Dental 🦷. Greet every caller warmly, confirm their name and date of birth, ` +
    'and help them book, move or cancel appointments. Never give medical advice; offer a call back from a hygienist instead. ' +
    'Keep answers under three sentences 😊 and always end by asking whether there is anything else you can help with. ' +
    'Escalate billing disputes to the office manager and log every call outcome in the CRM with the correct disposition code.';
  d.crm_agents = [
    {
      id: stableId('agent:reception'),
      websiteId: W1,
      crmAgentId: 'ghl-agent-48213',
      name: 'Reception bot',
      status: 'active',
      createdAt: at(-90),
      promptVersions: [
        { versionNumber: 1, promptText: 'Old prompt.', isActive: false },
        { versionNumber: 2, promptText: longPrompt('Harbor Reception'), isActive: true },
      ],
    },
    {
      id: stableId('agent:recall'),
      websiteId: W1,
      crmAgentId: 'ghl-agent-48214',
      name: 'Recall caller',
      status: 'paused',
      createdAt: at(-30),
      promptVersions: [{ versionNumber: 1, promptText: 'Draft prompt, not yet active.', isActive: false }],
    },
    {
      id: stableId('agent:orders'),
      websiteId: W2,
      crmAgentId: 'ghl-agent-50001',
      name: 'Order taker',
      status: 'active',
      createdAt: at(-12),
      promptVersions: [{ versionNumber: 3, promptText: '🥐'.repeat(250), isActive: true }],
    },
  ];
  return d;
}
