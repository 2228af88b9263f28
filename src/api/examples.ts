/**
 * One request and one 200 response per operation, for the OpenAPI document (docs/api-decisions.md
 * §10). Typed by the table, and checked by test/contract/examples.test.ts against the
 * document's own schemas and the server's zod schemas.
 */
import { newAdCreativeView } from './ad-creative.js';
import type { OperationId } from './routes.js';
import type { ResponseData } from './io-types.js';

const WEBSITE = '3f6c2a9e-1b7d-4c5e-9a2f-8d1e0b4c7a61';
const OWNER = '9b2e4f10-6c3a-4d8e-b1f7-2a5c9e0d4b83';
const ENTITY = 'c41d7e92-5a0b-4f36-8e2d-7b9a1c3f5e04';

export interface OperationExample<Op extends OperationId> {
  /** Path and query parameters, each shown as its parameter's example. */
  parameters?: Record<string, string | number>;
  /** Named request bodies (a write's body differs by case, e.g. per listener source). */
  bodies?: Record<string, { summary: string; value: Record<string, unknown> }>;
  response: ResponseData<Op>;
}

/** 9x9 grid points within 25 miles (docs/api-decisions.md §6), ranks worsening away from the centre. */
function grid(lat: number, lng: number, best: number) {
  const step = 25 / 69 / 4;
  const points = [];
  for (let row = -4; row <= 4; row++) {
    for (let col = -4; col <= 4; col++) {
      const rank = best + Math.abs(row) + Math.abs(col);
      points.push({ lat: Number((lat + row * step).toFixed(5)), lng: Number((lng + col * step).toFixed(5)), rank: rank > 20 ? null : rank });
    }
  }
  return points;
}

const revenueRecord = {
  id: '5d8a3c61-2e4f-4b7a-9c10-3f6e8b2d1a47',
  entity_id: ENTITY,
  website_id: WEBSITE,
  client_name: 'Harbor Dental',
  type: 'recurring' as const,
  amount_cents: 450000,
  currency: 'USD',
  billing_frequency: 'monthly' as const,
  next_invoice_date: '2025-06-18',
  last_invoiced_at: '2025-05-18T09:00:00Z',
  status: 'active' as const,
  renewal_date: '2025-12-31',
  payment_terms: 'net 15',
  started_at: '2024-01-01T00:00:00Z',
  ended_at: null,
  notes: null,
  product_line_id: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2025-05-18T09:00:00Z',
};

export const EXAMPLES: { [Op in OperationId]: OperationExample<Op> } = {
  getFinanceSummary: {
    response: {
      summaries: [
        {
          entity: { id: ENTITY, name: 'Northwind Marketing LLC', accounting_tenant_id: null, owner_id: OWNER, created_at: '2024-01-01T00:00:00Z' },
          activeMrr: 450000,
          activeClientCount: 1,
          nextRenewalDate: '2025-12-31',
          monthlyCostCents: 82000,
          monthlyAiCostCents: 12000,
        },
      ],
      invoiceAlerts: [{ revenueRecord, entityName: 'Northwind Marketing LLC', daysUntilDue: 3, isOverdue: false }],
    },
  },
  createAdCreative: {
    bodies: {
      carousel: {
        summary: 'A carousel ad for Meta',
        value: {
          website_id: WEBSITE,
          name: 'Summer whitening',
          ad_format: 'carousel',
          destination_url: 'https://harbordental.example/whitening',
          headline: 'Brighter smiles this summer',
          image_urls: ['https://cdn.harbordental.example/ads/whitening-1.png'],
          platform: 'meta',
        },
      },
    },
    response: newAdCreativeView({
      id: 'e7a1c5d3-9b2f-4e68-a0c4-1d3f5b7e9a20',
      platform: 'meta',
      adFormat: 'carousel',
      name: 'Summer whitening',
      destinationUrl: 'https://harbordental.example/whitening',
      imageUrls: ['https://cdn.harbordental.example/ads/whitening-1.png'],
      createdAt: '2025-06-15T12:00:00Z',
    }),
  },
  createContentListener: {
    parameters: { website_id: WEBSITE },
    bodies: {
      rss: {
        summary: 'An RSS feed, polled every 6 hours',
        value: { name: 'Dental industry news', source_type: 'rss', query_config: { feed_url: 'https://news.example/dental/feed.xml' }, poll_interval: '6h' },
      },
      reddit: {
        summary: 'A subreddit, polled daily (the default)',
        value: { name: 'r/Dentistry', source_type: 'reddit', query_config: { subreddit: 'Dentistry' } },
      },
      google_news: {
        summary: 'News by keywords',
        value: { name: 'Whitening news', source_type: 'google_news', query_config: { keywords: ['teeth whitening', 'dental veneers'] } },
      },
    },
    response: {
      id: '0c9e2b4d-6f81-4a3c-b5d7-e9f1a3c5b7d9',
      websiteId: WEBSITE,
      name: 'Dental industry news',
      sourceType: 'rss',
      queryConfig: { feed_url: 'https://news.example/dental/feed.xml' },
      pollInterval: '6h',
      nextPollAt: '2025-06-15T18:00:00Z',
      lastPolledAt: null,
      lastItemCount: 0,
      enabled: true,
      createdAt: '2025-06-15T12:00:00Z',
      updatedAt: '2025-06-15T12:00:00Z',
    },
  },
  scheduleSocialPost: {
    parameters: { id: '7b3d9f15-2c4e-4a68-8e0b-5d7f9a1c3e52' },
    bodies: {
      utc: { summary: 'A time in UTC', value: { scheduled_at: '2030-07-01T09:30:00Z' } },
      offset: { summary: 'A time with an offset', value: { scheduled_at: '2030-07-01T11:30:00+02:00' } },
    },
    response: { id: '7b3d9f15-2c4e-4a68-8e0b-5d7f9a1c3e52', status: 'scheduled', scheduledAt: '2030-07-01T09:30:00Z' },
  },
  listLearnings: {
    parameters: { website_id: WEBSITE, dimension_type: 'hook', limit: 10 },
    response: {
      learnings: [
        {
          id: 'a2c4e6f8-1b3d-4f5a-9c7e-0d2f4b6a8c1e',
          channel: 'meta',
          dimensionType: 'hook',
          dimensionValue: 'question opener',
          summary: 'Opening with a question beat the control in 4 independent tests',
          evidenceCount: 4,
          confidenceScore: 0.91,
          status: 'confirmed',
          createdAt: '2025-05-02T08:00:00Z',
        },
      ],
      total: 1,
    },
  },
  listNurtureSequences: {
    parameters: { website_id: WEBSITE, status: 'active', limit: 20, offset: 0 },
    response: {
      sequences: [
        {
          contentId: 'd5f7b9e1-3a5c-4e7b-8d9f-1b3d5f7a9c2e',
          title: 'New patient welcome',
          status: 'active',
          stepCount: 5,
          createdAt: '2025-03-01T10:00:00Z',
          updatedAt: '2025-06-10T16:45:00Z',
        },
      ],
      total: 1,
      limit: 20,
      offset: 0,
    },
  },
  getGbpVisibility: {
    parameters: { website_id: WEBSITE, keyword: 'emergency dentist' },
    response: { keywords: [{ keyword: 'emergency dentist', gridPoints: grid(41.30812, -72.92816, 1) }], scanDate: '2025-06-08' },
  },
  listBrandSubjects: {
    parameters: { website_id: WEBSITE },
    response: [
      {
        id: 'f1e3d5c7-b9a2-4c4e-8f6a-2b4d6f8a0c13',
        subjectName: 'Toothy',
        subjectDescription: 'The practice mascot, a cheerful cartoon tooth',
        subjectType: 'mascot',
        identityTraits: 'friendly, reassuring',
        appearanceDetails: 'white tooth with a blue cape',
        distinguishingFeatures: 'star-shaped sparkle on the crown',
        styleCharacteristics: 'flat vector, soft shadows',
        colorProfile: ['#FFFFFF', '#1E6FD9'],
        defaultScale: 'medium',
        preferredPlacement: 'bottom right',
        compositingNotes: 'keep on light backgrounds',
        status: 'active',
        referenceImages: [{ imageId: 'img-1', publicUrl: 'https://cdn.harbordental.example/brand/toothy.png', label: 'front', isPrimary: true }],
        brandMark: { imageId: 'mark-1', publicUrl: 'https://cdn.harbordental.example/brand/mark.png' },
      },
    ],
  },
  listCrmAgents: {
    parameters: { website_id: WEBSITE },
    response: {
      agents: [
        {
          id: 'b8d0f2a4-6c8e-4a1b-9d3f-5e7a9c1b3d5f',
          crmAgentId: 'agent_4821',
          name: 'Front desk assistant',
          status: 'active',
          activePromptVersion: {
            versionNumber: 3,
            promptText: 'You answer questions about appointments, insurance and opening hours for Harbor Dental.',
            isActive: true,
          },
          createdAt: '2025-02-14T09:00:00Z',
        },
      ],
    },
  },
};
