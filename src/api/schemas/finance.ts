import { z } from 'zod';
import { nullableString } from './common.js';

export const REVENUE_TYPES = ['recurring', 'project', 'one_time'] as const;
export const BILLING_FREQUENCIES = ['monthly', 'quarterly', 'semi_annual', 'annual'] as const;
export const REVENUE_STATUSES = ['active', 'paused', 'churned', 'completed'] as const;

export const BusinessEntity = z.looseObject({
  id: z.string(),
  name: z.string(),
  accounting_tenant_id: nullableString(),
  owner_id: z.string(),
  created_at: z.string(),
});
export type BusinessEntity = z.infer<typeof BusinessEntity>;

export const RevenueRecord = z.looseObject({
  id: z.string(),
  entity_id: z.string(),
  website_id: nullableString(),
  client_name: z.string(),
  type: z.enum(REVENUE_TYPES),
  amount_cents: z.number().int(),
  currency: z.string(),
  billing_frequency: z.enum(BILLING_FREQUENCIES).nullable(),
  next_invoice_date: nullableString(),
  last_invoiced_at: nullableString(),
  status: z.enum(REVENUE_STATUSES),
  renewal_date: nullableString(),
  payment_terms: nullableString(),
  started_at: z.string(),
  ended_at: nullableString(),
  notes: nullableString(),
  product_line_id: nullableString(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RevenueRecord = z.infer<typeof RevenueRecord>;

export const EntitySummary = z.looseObject({
  entity: BusinessEntity,
  activeMrr: z.number().int(),
  activeClientCount: z.number().int(),
  nextRenewalDate: nullableString(),
  monthlyCostCents: z.number().int(),
  monthlyAiCostCents: z.number().int(),
  /**
   * Not in the published API: the local server adds the entity's currency (ISO 4217, null
   * when unknown or mixed; docs/api-decisions.md). Optional: a client never requires it.
   */
  currency: z.string().nullable().optional(),
});
export type EntitySummary = z.infer<typeof EntitySummary>;

export const InvoiceAlert = z.looseObject({
  revenueRecord: RevenueRecord,
  entityName: z.string(),
  daysUntilDue: z.number().int(),
  isOverdue: z.boolean(),
});
export type InvoiceAlert = z.infer<typeof InvoiceAlert>;

export const FinanceSummary = z.looseObject({
  summaries: z.array(EntitySummary),
  invoiceAlerts: z.array(InvoiceAlert),
});
export type FinanceSummary = z.infer<typeof FinanceSummary>;
