import { BusinessEntity, RevenueRecord } from '../../api/schemas/finance.js';
import type { EntitySummary, FinanceSummary, InvoiceAlert } from '../../api/schemas/finance.js';
import { addDays, daysBetween } from '../domain/compute/finance.js';
import { pickShape } from '../domain/compute/pick.js';
import type { CollectionName, CostItemRecord, RecordOf } from '../store/schema.js';
import type { Sql } from 'postgres';

/** What the summary needs of the PostgreSQL store (pg-store.ts): its connection and its lookups. */
export interface FinanceSource {
  readonly sql: Sql;
  findBy<C extends CollectionName>(collection: C, values: readonly string[]): Promise<RecordOf<C>[]>;
}

const byName = (a: BusinessEntity, b: BusinessEntity) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * GET /finance/summary over PostgreSQL: the same answer as financeSummary()
 * (src/server/domain/compute/finance.ts), from the running totals that the revenue trigger keeps
 * (migrations.ts) and two index range scans, so its cost does not grow with the number of
 * revenue records (docs/shared-sandbox.md has the figures).
 */
export async function pgFinanceSummary(store: FinanceSource, ownerId: string, today: string, alertDays = 7): Promise<FinanceSummary> {
  const sql = store.sql;
  const entities = (await store.findBy('business_entities', [ownerId])).filter((e) => e.owner_id === ownerId).sort(byName);
  const ids = entities.map((e) => e.id);
  if (ids.length === 0) return { summaries: [], invoiceAlerts: [] };
  const lastAlertDay = addDays(today, alertDays);
  const [totals, currencies, renewals, due, costs] = await Promise.all([
    sql`SELECT entity_id, active_mrr::float8 AS mrr, active_clients AS clients FROM cr_entity_totals WHERE entity_id = ANY(${ids})`,
    sql`SELECT entity_id, min(currency) AS code, count(*)::int AS n FROM cr_entity_currencies WHERE entity_id = ANY(${ids}) AND n > 0 GROUP BY entity_id`,
    sql`SELECT e AS entity_id, (SELECT min(renewal_date) FROM cr_revenue WHERE entity_id = e AND active AND renewal_date >= ${today}) AS next
        FROM unnest(${ids}::text[]) AS e`,
    sql`SELECT v.entity_id, v.next_invoice_date AS due, r.body::text AS b FROM cr_revenue v JOIN cr_records r ON r.seq = v.seq
        WHERE v.active AND v.entity_id = ANY(${ids}) AND v.next_invoice_date <= ${lastAlertDay}`,
    store.findBy('cost_items', ids),
  ]);
  const total = new Map(totals.map((t) => [t.entity_id as string, t]));
  const currency = new Map(currencies.map((c) => [c.entity_id as string, c.n === 1 && c.code !== '' ? (c.code as string) : null]));
  const renewal = new Map(renewals.map((r) => [r.entity_id as string, (r.next as string | null) ?? null]));
  const costsOf = new Map<string, CostItemRecord[]>();
  for (const c of costs) costsOf.set(c.entity_id, [...(costsOf.get(c.entity_id) ?? []), c]);
  const nameOf = new Map(entities.map((e) => [e.id, e.name]));
  const alerts: InvoiceAlert[] = [];
  for (const row of due) {
    const daysUntilDue = daysBetween(today, row.due as string);
    if (Number.isNaN(daysUntilDue)) continue;
    const record = JSON.parse(row.b as string);
    alerts.push({
      revenueRecord: pickShape(RevenueRecord, record),
      entityName: nameOf.get(row.entity_id as string)!,
      daysUntilDue,
      isOverdue: daysUntilDue < 0,
    });
  }
  alerts.sort(
    (a, b) =>
      a.daysUntilDue - b.daysUntilDue ||
      (a.entityName < b.entityName ? -1 : a.entityName > b.entityName ? 1 : 0) ||
      (a.revenueRecord.id < b.revenueRecord.id ? -1 : a.revenueRecord.id > b.revenueRecord.id ? 1 : 0),
  );
  const summaries: EntitySummary[] = entities.map((e) => {
    const t = total.get(e.id);
    const own = costsOf.get(e.id) ?? [];
    return {
      entity: pickShape(BusinessEntity, e),
      activeMrr: t ? Number(t.mrr) : 0,
      activeClientCount: t ? Number(t.clients) : 0,
      nextRenewalDate: renewal.get(e.id) ?? null,
      monthlyCostCents: own.reduce((sum, c) => sum + c.monthly_cents, 0),
      monthlyAiCostCents: own.reduce((sum, c) => sum + (c.category === 'ai' ? c.monthly_cents : 0), 0),
      currency: currency.get(e.id) ?? null,
    };
  });
  return { summaries, invoiceAlerts: alerts };
}
