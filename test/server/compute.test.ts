import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { daysBetween, financeSummary, monthlyEquivalent } from '../../src/server/domain/compute/finance.js';
import { truncateCodePoints, toCrmAgent } from '../../src/server/domain/compute/crm.js';
import { publicUrlOf, toBrandSubject } from '../../src/server/domain/compute/brand.js';
import { listNurture } from '../../src/server/domain/compute/nurture.js';
import type { RevenueRecord } from '../../src/api/schemas/finance.js';

const entity = (id: string, name: string, owner = 'u1') => ({ id, name, accounting_tenant_id: null, owner_id: owner, created_at: '2024-01-01T00:00:00Z' });
let n = 0;
const rec = (o: Partial<RevenueRecord>): RevenueRecord => ({
  id: `r${++n}`,
  entity_id: 'e1',
  website_id: null,
  client_name: `client ${n}`,
  type: 'recurring',
  amount_cents: 10000,
  currency: 'USD',
  billing_frequency: 'monthly',
  next_invoice_date: null,
  last_invoiced_at: null,
  status: 'active',
  renewal_date: null,
  payment_terms: null,
  started_at: '2024-01-01T00:00:00Z',
  ended_at: null,
  notes: null,
  product_line_id: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  ...o,
});
const TODAY = '2025-03-10';
const summary = (records: RevenueRecord[], costs: any[] = []) => financeSummary({ entities: [entity('e1', 'Acme')], records, costs, ownerId: 'u1', today: TODAY });

describe('finance (decisions §6), hand-computed', () => {
  it.each([
    ['monthly', 12345, 12345],
    ['quarterly', 10000, 3333], // 3333.33
    ['quarterly', 10001, 3334], // 3333.67
    ['semi_annual', 10000, 1667], // 1666.67
    ['semi_annual', 9003, 1501], // 1500.5 rounds up
    ['annual', 10000, 833], // 833.33
    ['annual', 120000, 10000],
    [null, 4321, 4321], // null counts as monthly
  ] as const)('%s %i → %i a month', (freq, amount, monthly) => {
    expect(monthlyEquivalent(amount, freq)).toBe(monthly);
    expect(summary([rec({ billing_frequency: freq, amount_cents: amount })]).summaries[0]!.activeMrr).toBe(monthly);
  });

  it('each record is rounded before summing (3 × 10000 quarterly = 9999, not 10000)', () => {
    const s = summary([1, 2, 3].map(() => rec({ billing_frequency: 'quarterly', amount_cents: 10000 })));
    expect(s.summaries[0]!.activeMrr).toBe(9999);
  });

  it('paused, churned, completed and non-recurring records add no MRR', () => {
    const s = summary([
      rec({ amount_cents: 1000 }),
      rec({ status: 'paused', amount_cents: 50000 }),
      rec({ status: 'churned', amount_cents: 50000 }),
      rec({ status: 'completed', amount_cents: 50000 }),
      rec({ type: 'project', amount_cents: 50000 }),
      rec({ type: 'one_time', amount_cents: 50000 }),
    ]);
    expect(s.summaries[0]!.activeMrr).toBe(1000);
    expect(s.summaries[0]!.activeClientCount).toBe(3); // active of any type: the first, the project, the one-time
  });

  it('activeClientCount counts distinct client names among active records', () => {
    const s = summary([rec({ client_name: 'A' }), rec({ client_name: 'A', type: 'project' }), rec({ client_name: 'B' }), rec({ client_name: 'C', status: 'paused' })]);
    expect(s.summaries[0]!.activeClientCount).toBe(2);
  });

  it('nextRenewalDate: earliest ≥ today among active records', () => {
    const s = summary([rec({ renewal_date: '2025-03-09' }), rec({ renewal_date: '2025-04-01' }), rec({ renewal_date: '2025-03-10' }), rec({ renewal_date: '2025-03-11', status: 'paused' })]);
    expect(s.summaries[0]!.nextRenewalDate).toBe('2025-03-10');
    expect(summary([rec({ renewal_date: '2025-01-01' })]).summaries[0]!.nextRenewalDate).toBeNull();
  });

  it('costs: all categories, and AI only', () => {
    const costs = [
      { id: 'c1', entity_id: 'e1', category: 'ai', monthly_cents: 700, description: '' },
      { id: 'c2', entity_id: 'e1', category: 'software', monthly_cents: 300, description: '' },
      { id: 'c3', entity_id: 'e2', category: 'ai', monthly_cents: 99999, description: '' },
    ];
    expect(summary([], costs).summaries[0]).toMatchObject({ monthlyCostCents: 1000, monthlyAiCostCents: 700, activeMrr: 0, activeClientCount: 0 });
  });

  it('invoice alerts: overdue included, window edge at exactly 7 days in, 8 days out, sorted', () => {
    const s = summary([
      rec({ id: 'in7', next_invoice_date: '2025-03-17' }),
      rec({ id: 'out8', next_invoice_date: '2025-03-18' }),
      rec({ id: 'overdue', next_invoice_date: '2025-03-01' }),
      rec({ id: 'today', next_invoice_date: '2025-03-10', type: 'project' }),
      rec({ id: 'paused', next_invoice_date: '2025-03-11', status: 'paused' }),
      rec({ id: 'none', next_invoice_date: null }),
    ]);
    expect(s.invoiceAlerts.map((a) => [a.revenueRecord.id, a.daysUntilDue, a.isOverdue, a.entityName])).toEqual([
      ['overdue', -9, true, 'Acme'],
      ['today', 0, false, 'Acme'],
      ['in7', 7, false, 'Acme'],
    ]);
  });

  it('only entities of the owner, sorted by name', () => {
    const s = financeSummary({
      entities: [entity('e3', 'Zulu'), entity('e1', 'alpha-lower'), entity('e2', 'Bravo'), entity('ex', 'Other', 'u2')],
      records: [rec({ entity_id: 'ex', next_invoice_date: TODAY })],
      costs: [],
      ownerId: 'u1',
      today: TODAY,
    });
    expect(s.summaries.map((x) => x.entity.name)).toEqual(['Bravo', 'Zulu', 'alpha-lower']);
    expect(s.invoiceAlerts).toEqual([]);
  });

  it('daysBetween crosses month and leap-day boundaries in whole days', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-03-10', '2025-03-03')).toBe(-7);
    expect(daysBetween('2025-03-10', '2025-03-10T23:59:59Z')).toBe(0);
  });

  it('property: MRR equals the sum of individually rounded monthly equivalents', () => {
    const freq = fc.constantFrom('monthly', 'quarterly', 'semi_annual', 'annual', null);
    fc.assert(
      fc.property(fc.array(fc.record({ amount: fc.integer({ min: 0, max: 10_000_000 }), freq }), { maxLength: 20 }), (items) => {
        const expected = items.reduce((s, i) => s + Math.round(i.amount / ({ monthly: 1, quarterly: 3, semi_annual: 6, annual: 12 } as const)[i.freq ?? 'monthly']), 0);
        const got = summary(items.map((i) => rec({ amount_cents: i.amount, billing_frequency: i.freq }))).summaries[0]!.activeMrr;
        return got === expected && Number.isInteger(got);
      }),
    );
  });
});

describe('CRM prompt truncation', () => {
  it('cuts at 200 code points and never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (s) => {
        const t = truncateCodePoints(s);
        return Array.from(t).length === Math.min(200, Array.from(s).length) && s.startsWith(t) && !/[\uD800-\uDBFF]$/.test(t);
      }),
    );
    expect(truncateCodePoints('a'.repeat(199) + '😀😀')).toBe('a'.repeat(199) + '😀');
  });

  it('picks the active version (highest if several) or null', () => {
    const base = { id: 'a', websiteId: 'w', crmAgentId: 'c', name: 'n', status: 's', createdAt: 't' };
    expect(toCrmAgent({ ...base, promptVersions: [] }).activePromptVersion).toBeNull();
    const v = toCrmAgent({
      ...base,
      promptVersions: [
        { versionNumber: 1, promptText: 'one', isActive: true },
        { versionNumber: 3, promptText: 'three', isActive: true },
        { versionNumber: 4, promptText: 'four', isActive: false },
      ],
    });
    expect(v.activePromptVersion).toEqual({ versionNumber: 3, promptText: 'three', isActive: true });
    expect(Object.keys(v).sort()).toEqual(['activePromptVersion', 'createdAt', 'crmAgentId', 'id', 'name', 'status']);
  });
});

describe('brand subjects', () => {
  it('publicUrlOf refuses data: URLs, empty and missing values', () => {
    expect(publicUrlOf('https://x/a.png')).toBe('https://x/a.png');
    expect(publicUrlOf(' DATA:image/png;base64,AAAA')).toBeUndefined();
    expect(publicUrlOf('')).toBeUndefined();
    expect(publicUrlOf(null)).toBeUndefined();
  });
  it('scrubs inline data from text fields and never returns base64 or websiteId', () => {
    const out = toBrandSubject({
      id: 'b',
      websiteId: 'w',
      subjectName: 'N',
      subjectDescription: 'see data:image/png;base64,AAAA here',
      subjectType: 't',
      identityTraits: '',
      appearanceDetails: '',
      distinguishingFeatures: '',
      styleCharacteristics: '',
      colorProfile: ['#fff'],
      defaultScale: 's',
      preferredPlacement: '',
      compositingNotes: '',
      status: 'active',
      referenceImages: [{ imageId: 'i', base64: 'AAAA', publicUrl: 'https://x/i.png', label: 'l', isPrimary: true }],
      brandMark: { imageId: 'm', base64: 'AAAA' },
    } as any);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/base64|data:|websiteId/);
    expect(out.referenceImages).toEqual([{ imageId: 'i', publicUrl: 'https://x/i.png', label: 'l', isPrimary: true }]);
    expect(out.brandMark).toBeNull();
  });
});

describe('nurture paging', () => {
  it('total counts before paging; pages partition the sorted list', () => {
    const recs = Array.from({ length: 120 }, (_, i) => ({
      contentId: `c${i}`,
      websiteId: 'w',
      title: 't',
      status: i % 2 ? 'active' : 'draft',
      steps: Array(i % 5).fill({}),
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: new Date(Date.UTC(2025, 0, 1) + i * 3600_000).toISOString(),
    }));
    const ids: string[] = [];
    for (let offset = 0; offset < 120; offset += 50) {
      const page = listNurture(recs, { websiteIds: new Set(['w']), limit: 50, offset });
      expect(page.total).toBe(120);
      ids.push(...page.sequences.map((s) => s.contentId));
    }
    expect(ids).toEqual(recs.map((r) => r.contentId).reverse());
    expect(listNurture(recs, { websiteIds: new Set(['w']), limit: 50, offset: 0 }).sequences[0]!.stepCount).toBe(119 % 5);
  });
});
