import { BusinessEntity, RevenueRecord } from '../../api/schemas/finance.js';
import type { EntitySummary, FinanceSummary, InvoiceAlert } from '../../api/schemas/finance.js';
import type { CostItemRecord } from '../store-schema.js';
import { pickShape } from './pick.js';

type Entity = BusinessEntity;
type Revenue = RevenueRecord;
type Frequency = Revenue['billing_frequency'];

const DIVISOR: Record<NonNullable<Frequency>, number> = { monthly: 1, quarterly: 3, semi_annual: 6, annual: 12 };

/** Monthly equivalent of one amount, rounded to the nearest cent (null frequency = monthly). */
export function monthlyEquivalent(amountCents: number, frequency: Frequency | undefined): number {
  return Math.round(amountCents / DIVISOR[frequency ?? 'monthly']);
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** Whole days from `today` to `date` (both YYYY-MM-DD; date-times are cut to their date). */
export const daysBetween = (today: string, date: string): number => dayNumber(date) - dayNumber(today);

const byName = (a: Entity, b: Entity) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface FinanceInput {
  entities: readonly Entity[];
  records: readonly Revenue[];
  costs: readonly CostItemRecord[];
  ownerId: string;
  /** The clock's UTC date, YYYY-MM-DD. */
  today: string;
  /** Alert window in days (decisions.md §6: 7). */
  alertDays?: number;
}

/** GET /finance/summary (decisions.md §6). Pure. */
export function financeSummary(input: FinanceInput): FinanceSummary {
  const { today } = input;
  const alertDays = input.alertDays ?? 7;
  const owned = input.entities.filter((e) => e.owner_id === input.ownerId).sort(byName);
  const recordsOf = new Map<string, Revenue[]>();
  for (const r of input.records) {
    const list = recordsOf.get(r.entity_id) ?? [];
    list.push(r);
    recordsOf.set(r.entity_id, list);
  }
  const summaries: EntitySummary[] = [];
  const alerts: InvoiceAlert[] = [];
  for (const e of owned) {
    const active = (recordsOf.get(e.id) ?? []).filter((r) => r.status === 'active');
    const activeMrr = active
      .filter((r) => r.type === 'recurring')
      .reduce((sum, r) => sum + monthlyEquivalent(r.amount_cents, r.billing_frequency), 0);
    const clients = new Set(active.map((r) => r.client_name));
    const renewals = active
      .map((r) => r.renewal_date?.slice(0, 10))
      .filter((d): d is string => !!d && d >= today)
      .sort();
    const costs = input.costs.filter((c) => c.entity_id === e.id);
    summaries.push({
      entity: pickShape(BusinessEntity, e),
      activeMrr,
      activeClientCount: clients.size,
      nextRenewalDate: renewals[0] ?? null,
      monthlyCostCents: costs.reduce((s, c) => s + c.monthly_cents, 0),
      monthlyAiCostCents: costs.filter((c) => c.category === 'ai').reduce((s, c) => s + c.monthly_cents, 0),
    });
    for (const r of active) {
      if (!r.next_invoice_date) continue;
      const daysUntilDue = daysBetween(today, r.next_invoice_date);
      if (Number.isNaN(daysUntilDue) || daysUntilDue > alertDays) continue;
      alerts.push({ revenueRecord: pickShape(RevenueRecord, r), entityName: e.name, daysUntilDue, isOverdue: daysUntilDue < 0 });
    }
  }
  alerts.sort(
    (a, b) =>
      a.daysUntilDue - b.daysUntilDue ||
      (a.entityName < b.entityName ? -1 : a.entityName > b.entityName ? 1 : 0) ||
      (a.revenueRecord.id < b.revenueRecord.id ? -1 : a.revenueRecord.id > b.revenueRecord.id ? 1 : 0),
  );
  return { summaries, invoiceAlerts: alerts };
}
