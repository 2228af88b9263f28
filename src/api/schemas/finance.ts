import * as z from 'zod';
import { calendarDate, dateTime, nullableString } from './common.js';

export const REVENUE_TYPES = ['recurring', 'project', 'one_time'] as const;
export const BILLING_FREQUENCIES = ['monthly', 'quarterly', 'semi_annual', 'annual'] as const;
export const REVENUE_STATUSES = ['active', 'paused', 'churned', 'completed'] as const;

export const BusinessEntity = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    accounting_tenant_id: nullableString(),
    owner_id: z.string(),
    created_at: dateTime(),
  })
  .meta({ id: 'BusinessEntity', description: 'A business entity owned by a user; finance data belongs to it' });
export type BusinessEntity = z.infer<typeof BusinessEntity>;

export const RevenueRecord = z
  .looseObject({
    id: z.string(),
    entity_id: z.string(),
    website_id: nullableString(),
    client_name: z.string(),
    type: z.enum(REVENUE_TYPES),
    amount_cents: z.number().int(),
    currency: z.string(),
    billing_frequency: z.enum(BILLING_FREQUENCIES).nullable(),
    next_invoice_date: calendarDate().nullable(),
    last_invoiced_at: dateTime().nullable(),
    status: z.enum(REVENUE_STATUSES),
    renewal_date: calendarDate().nullable(),
    payment_terms: nullableString(),
    started_at: dateTime(),
    ended_at: dateTime().nullable(),
    notes: nullableString(),
    product_line_id: nullableString(),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .meta({ id: 'RevenueRecord', description: 'A revenue record of a business entity; amounts in cents' });
export type RevenueRecord = z.infer<typeof RevenueRecord>;

export const EntitySummary = z
  .looseObject({
    entity: BusinessEntity,
    activeMrr: z.number().int().describe('Monthly recurring revenue, in cents'),
    activeClientCount: z.number().int(),
    nextRenewalDate: calendarDate().nullable(),
    monthlyCostCents: z.number().int(),
    monthlyAiCostCents: z.number().int(),
    /**
     * Not in the published API: the local server adds the entity's currency (ISO 4217, null
     * when unknown or mixed; docs/api-decisions.md). Optional: a client never requires it.
     */
    currency: z.string().nullable().optional(),
  })
  .meta({ id: 'EntitySummary', description: 'Finance aggregates of one business entity (docs/api-decisions.md §6)' });
export type EntitySummary = z.infer<typeof EntitySummary>;

export const InvoiceAlert = z
  .looseObject({
    revenueRecord: RevenueRecord,
    entityName: z.string(),
    daysUntilDue: z.number().int().describe('Whole days from today to next_invoice_date; negative when overdue'),
    isOverdue: z.boolean(),
  })
  .meta({ id: 'InvoiceAlert', description: 'An active record invoiced within 7 days, or overdue' });
export type InvoiceAlert = z.infer<typeof InvoiceAlert>;

export const FinanceSummary = z
  .looseObject({
    summaries: z.array(EntitySummary),
    invoiceAlerts: z.array(InvoiceAlert),
  })
  .meta({ id: 'FinanceSummary', description: "Finance aggregates over the business entities owned by the key's user" });
export type FinanceSummary = z.infer<typeof FinanceSummary>;
