import { BusinessEntity, RevenueRecord } from '../../../api/schemas/finance.js';
import type { EntitySummary, FinanceSummary, InvoiceAlert } from '../../../api/schemas/finance.js';
import type { CostItemRecord } from '../../store/schema.js';
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
  /** Alert window in days (docs/api-decisions.md §6: 7). */
  alertDays?: number;
}

/** The calendar date `days` after `date` (YYYY-MM-DD), as YYYY-MM-DD. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

function groupBy<T>(items: readonly T[], key: (item: T) => string, keep: (item: T) => boolean): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    if (!keep(item)) continue;
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * The local server's extension to EntitySummary (docs/api-decisions.md): the one currency
 * of all the entity's revenue records (any status), upper-cased; null when it has none or
 * they mix currencies. The published API has no such field, so no client may require it.
 */
function entityCurrencies(records: readonly Revenue[], owned: ReadonlySet<string>): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const r of records) {
    if (!owned.has(r.entity_id)) continue;
    const code = (r.currency || '').toUpperCase() || null;
    const seen = out.get(r.entity_id);
    if (seen === undefined) out.set(r.entity_id, code);
    else if (seen !== code) out.set(r.entity_id, null);
  }
  return out;
}

/**
 * GET /finance/summary (docs/api-decisions.md §6). Pure. One pass over the records; dates are
 * compared as ISO strings (which sort like dates), and day counts are computed only for
 * the few records that become alerts.
 */
export function financeSummary(input: FinanceInput): FinanceSummary {
  const { today } = input;
  const lastAlertDay = addDays(today, input.alertDays ?? 7);
  const owned = input.entities.filter((e) => e.owner_id === input.ownerId).sort(byName);
  const ownedIds = new Set(owned.map((e) => e.id));
  const activeOf = groupBy(
    input.records,
    (r) => r.entity_id,
    (r) => r.status === 'active' && ownedIds.has(r.entity_id),
  );
  const costsOf = groupBy(
    input.costs,
    (c) => c.entity_id,
    (c) => ownedIds.has(c.entity_id),
  );
  const currencyOf = entityCurrencies(input.records, ownedIds);
  const summaries: EntitySummary[] = [];
  const alerts: InvoiceAlert[] = [];
  for (const e of owned) {
    const active = activeOf.get(e.id) ?? [];
    let activeMrr = 0;
    let nextRenewal: string | null = null;
    const clients = new Set<string>();
    for (const r of active) {
      if (r.type === 'recurring') activeMrr += monthlyEquivalent(r.amount_cents, r.billing_frequency);
      clients.add(r.client_name);
      const renewal = r.renewal_date?.slice(0, 10);
      if (renewal && renewal >= today && (nextRenewal === null || renewal < nextRenewal)) nextRenewal = renewal;
      const due = r.next_invoice_date?.slice(0, 10);
      if (!due || due > lastAlertDay) continue;
      const daysUntilDue = daysBetween(today, due);
      if (Number.isNaN(daysUntilDue)) continue;
      alerts.push({ revenueRecord: pickShape(RevenueRecord, r), entityName: e.name, daysUntilDue, isOverdue: daysUntilDue < 0 });
    }
    const costs = costsOf.get(e.id) ?? [];
    summaries.push({
      entity: pickShape(BusinessEntity, e),
      activeMrr,
      activeClientCount: clients.size,
      nextRenewalDate: nextRenewal,
      monthlyCostCents: costs.reduce((sum, c) => sum + c.monthly_cents, 0),
      monthlyAiCostCents: costs.reduce((sum, c) => sum + (c.category === 'ai' ? c.monthly_cents : 0), 0),
      currency: currencyOf.get(e.id) ?? null,
    });
  }
  alerts.sort(
    (a, b) =>
      a.daysUntilDue - b.daysUntilDue ||
      (a.entityName < b.entityName ? -1 : a.entityName > b.entityName ? 1 : 0) ||
      (a.revenueRecord.id < b.revenueRecord.id ? -1 : a.revenueRecord.id > b.revenueRecord.id ? 1 : 0),
  );
  return { summaries, invoiceAlerts: alerts };
}
