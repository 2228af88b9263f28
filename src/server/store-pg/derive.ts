import type { CollectionName } from '../store/schema.js';
import { monthlyEquivalent } from '../domain/compute/finance.js';

/**
 * The columns a record is found by in the PostgreSQL store (migrations.ts), derived from its
 * JSON the same way on every write, so queries never parse the body.
 */
export interface RecordColumns {
  id: string | null;
  websiteId: string | null;
  lookup: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The field other than the id that a collection is looked up by (auth, finance). */
const LOOKUP: Partial<Record<CollectionName, string>> = {
  api_keys: 'key_sha256',
  websites: 'agency_id',
  business_entities: 'owner_id',
  cost_items: 'entity_id',
  revenue_records: 'entity_id',
};

export function columnsOf(collection: CollectionName, record: Record<string, unknown>): RecordColumns {
  const id = str(record.id);
  const websiteId = collection === 'websites' ? id : (str(record.websiteId) ?? str(record.website_id));
  const field = LOOKUP[collection];
  return { id, websiteId, lookup: field ? str(record[field]) : null };
}

/** What the finance summary aggregates of one revenue record (src/server/domain/compute/finance.ts). */
export interface RevenueColumns {
  entityId: string;
  active: boolean;
  monthlyCents: number;
  clientName: string;
  currency: string;
  renewalDate: string | null;
  nextInvoiceDate: string | null;
}

type Frequency = Parameters<typeof monthlyEquivalent>[1];

export function revenueColumnsOf(record: Record<string, unknown>): RevenueColumns {
  const amount = typeof record.amount_cents === 'number' ? record.amount_cents : 0;
  const recurring = record.type === 'recurring';
  return {
    entityId: str(record.entity_id) ?? '',
    active: record.status === 'active',
    monthlyCents: recurring ? monthlyEquivalent(amount, (record.billing_frequency ?? undefined) as Frequency) : 0,
    clientName: str(record.client_name) ?? '',
    currency: (str(record.currency) ?? '').toUpperCase(),
    renewalDate: str(record.renewal_date)?.slice(0, 10) || null,
    nextInvoiceDate: str(record.next_invoice_date)?.slice(0, 10) || null,
  };
}
