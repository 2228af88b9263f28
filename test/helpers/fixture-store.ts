import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A hand-written store (docs/api-decisions.md §7 format) for the end-to-end command tests: known
 * keys of each role, two finance entities in two currencies, an overdue invoice, 450
 * nurture sequences, a 9×9 visibility scan, brand subjects and CRM agents.
 */
export const NOW = '2026-11-22T10:00:00.000Z';
export const USER = 'u-owner';
export const SITE = '11111111-1111-4111-8111-111111111111';
export const OTHER_SITE = '22222222-2222-4222-8222-222222222222';
export const EMPTY_SITE = '55555555-5555-4555-8555-555555555555';
export const POST_DRAFT = '33333333-3333-4333-8333-333333333333';
export const POST_MISSING = '44444444-4444-4444-8444-444444444444';

const key = (fill: string) => `cr_${fill.repeat(40)}`;
export const KEYS = { editor: key('e'), viewer: key('a'), empty: key('b'), unknown: key('f') };
const sha = (k: string) => createHash('sha256').update(k).digest('hex');

const ts = '2026-01-01T00:00:00.000Z';
const record = (id: string, entity_id: string, client_name: string, amount_cents: number, currency: string, next_invoice_date: string) => ({
  id,
  entity_id,
  website_id: null,
  client_name,
  type: 'recurring',
  amount_cents,
  currency,
  billing_frequency: 'monthly',
  next_invoice_date,
  last_invoiced_at: null,
  status: 'active',
  renewal_date: '2026-12-01',
  payment_terms: 'net 30',
  started_at: ts,
  ended_at: null,
  notes: null,
  product_line_id: null,
  created_at: ts,
  updated_at: ts,
});

/** 81 points around a centre; rank pattern known to the tests (centre = 2). */
export function gridPoints() {
  const pts = [];
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const i = r * 9 + c;
      const rank = r === 4 && c === 4 ? 2 : i % 10 === 9 ? null : (i % 20) + 1;
      pts.push({ lat: 40.8 - r * 0.08, lng: -74.3 + c * 0.1, rank });
    }
  }
  return pts.reverse(); // listed south-east first: the CLI must put north-west first itself
}

export function fixtureStore() {
  const nurture = Array.from({ length: 450 }, (_, i) => ({
    contentId: `seq-${String(i).padStart(3, '0')}`,
    title: `Sequence ${i}`,
    status: i % 3 === 0 ? 'active' : 'draft',
    createdAt: ts,
    updatedAt: new Date(Date.parse(NOW) - i * 60_000).toISOString(),
    websiteId: SITE,
    steps: Array.from({ length: i % 5 }, (_, s) => ({ n: s })),
  }));
  return {
    version: 1,
    users: [
      { id: USER, email: 'owner@example.com', name: 'Owner' },
      { id: 'u-empty', email: 'e@example.com', name: 'Empty' },
    ],
    agencies: [],
    websites: [
      { id: SITE, name: 'Acme', domain: 'acme.example', agency_id: null, owner_id: USER, location: { lat: 40.48, lng: -73.9 } },
      { id: EMPTY_SITE, name: 'Empty', domain: 'empty.example', agency_id: null, owner_id: 'u-empty', location: null },
      { id: OTHER_SITE, name: 'Other', domain: 'other.example', agency_id: null, owner_id: 'u-other', location: null },
    ],
    api_keys: [
      { id: 'k-editor', name: 'editor', key_sha256: sha(KEYS.editor), user_id: USER, role: 'editor', website_id: SITE, created_at: ts, revoked_at: null },
      { id: 'k-viewer', name: 'viewer', key_sha256: sha(KEYS.viewer), user_id: USER, role: 'viewer', website_id: SITE, created_at: ts, revoked_at: null },
      { id: 'k-empty', name: 'empty', key_sha256: sha(KEYS.empty), user_id: 'u-empty', role: 'viewer', website_id: EMPTY_SITE, created_at: ts, revoked_at: null },
    ],
    business_entities: [
      { id: 'ent-a', name: 'Acme Studio', accounting_tenant_id: null, owner_id: USER, created_at: ts },
      { id: 'ent-b', name: 'Berlin GmbH', accounting_tenant_id: null, owner_id: USER, created_at: ts },
    ],
    revenue_records: [
      record('rr-1', 'ent-a', 'Globex', 1234567, 'USD', '2026-11-20'),
      record('rr-2', 'ent-a', 'Initech', 99900, 'USD', '2026-11-25'),
      record('rr-3', 'ent-b', 'Kaufhaus', 500000, 'EUR', '2026-11-27'),
    ],
    cost_items: [
      { id: 'c-1', entity_id: 'ent-a', category: 'ai', monthly_cents: 12000, description: 'LLM' },
      { id: 'c-2', entity_id: 'ent-a', category: 'staff', monthly_cents: 300000, description: 'Staff' },
      { id: 'c-3', entity_id: 'ent-b', category: 'software', monthly_cents: 700000, description: 'Tools' },
    ],
    ad_campaigns: [{ id: 'camp-1', websiteId: SITE, name: 'Spring', platform: 'google' }],
    ad_creatives: [],
    content_listeners: [],
    social_posts: [{ id: POST_DRAFT, websiteId: SITE, status: 'draft', content: 'Hello', scheduledAt: null, createdAt: ts, updatedAt: ts }],
    learnings: [
      {
        id: 'l-1',
        websiteId: SITE,
        channel: 'email',
        dimensionType: 'hook',
        dimensionValue: 'deadline',
        summary: 'Subject lines naming a concrete deadline beat vague urgency in three independent tests across segments.',
        evidenceCount: 3,
        confidenceScore: 0.87,
        status: 'confirmed',
        createdAt: ts,
      },
      {
        id: 'l-2',
        websiteId: SITE,
        channel: 'social',
        dimensionType: 'angle',
        dimensionValue: 'cost',
        summary: 'Cost angle wins.',
        evidenceCount: 2,
        confidenceScore: 0.62,
        status: 'confirmed',
        createdAt: ts,
      },
    ],
    nurture_sequences: nurture,
    visibility_scans: [
      {
        websiteId: SITE,
        scanDate: '2026-11-20',
        keywords: [
          { keyword: 'plumber near me', gridPoints: gridPoints() },
          { keyword: 'emergency plumber', gridPoints: gridPoints().map((p) => ({ ...p, rank: null })) },
        ],
      },
    ],
    brand_subjects: [
      {
        id: 'bs-1',
        websiteId: SITE,
        subjectName: 'Maxi',
        subjectDescription: 'Mascot',
        subjectType: 'mascot',
        identityTraits: '',
        appearanceDetails: '',
        distinguishingFeatures: '',
        styleCharacteristics: '',
        colorProfile: ['#ff0000'],
        defaultScale: 'medium',
        preferredPlacement: '',
        compositingNotes: '',
        status: 'active',
        referenceImages: [
          { imageId: 'i-1', publicUrl: 'https://cdn.example.com/maxi-side.png', label: 'side', isPrimary: false },
          { imageId: 'i-2', publicUrl: 'https://cdn.example.com/maxi-front.png', label: 'front', isPrimary: true },
        ],
        brandMark: null,
      },
    ],
    crm_agents: [
      {
        id: 'ag-1',
        websiteId: SITE,
        crmAgentId: 'ext-42',
        name: 'Closer',
        status: 'active',
        createdAt: ts,
        promptVersions: [
          { versionNumber: 1, promptText: 'old', isActive: false },
          { versionNumber: 3, promptText: 'You are a friendly sales assistant.\nQualify leads by budget, authority, need and timing before booking a call.', isActive: true },
        ],
      },
    ],
  };
}

export function writeFixtureStore(dir: string): string {
  const path = join(dir, 'store.json');
  writeFileSync(path, JSON.stringify(fixtureStore(), null, 2));
  return path;
}
