import * as z from 'zod';
import { BusinessEntity, RevenueRecord } from '../../../api/schemas/finance.js';

/** Records of the finance collections (docs/store-format.md): entities and revenue as the API has them, and cost items. */
export const CostItemRecord = z.looseObject({
  id: z.string(),
  entity_id: z.string(),
  category: z.enum(['ai', 'software', 'staff', 'other']),
  monthly_cents: z.number().int(),
  description: z.string(),
});

export const financeRecords = { business_entities: BusinessEntity, revenue_records: RevenueRecord, cost_items: CostItemRecord } as const;

export type CostItemRecord = z.infer<typeof CostItemRecord>;
