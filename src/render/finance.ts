/**
 * Rows of `cr finance summary`. EntitySummary carries no currency, so an entity's money
 * is shown in the currency of its own revenue records seen in the invoice alerts when
 * they agree on one, else USD (the API's default currency).
 */
import type { EntitySummary, FinanceSummary, InvoiceAlert } from '../api/schemas/finance.js';

export interface EntityRow {
  name: string;
  currency: string;
  mrr: number;
  clients: number | null;
  nextRenewal: string | null;
  cost: number;
  aiCost: number;
  margin: number;
  total: boolean;
}

/** Reads only each alert's record entity and currency. */
export function entityCurrency(entityId: string, alerts: readonly { revenueRecord: Pick<InvoiceAlert['revenueRecord'], 'entity_id' | 'currency'> }[]): string {
  const seen = new Set(alerts.filter((a) => a.revenueRecord.entity_id === entityId).map((a) => (a.revenueRecord.currency || 'USD').toUpperCase()));
  return seen.size === 1 ? [...seen][0]! : 'USD';
}

export function entityRow(s: EntitySummary, currency: string): EntityRow {
  return {
    name: s.entity.name,
    currency,
    mrr: s.activeMrr,
    clients: s.activeClientCount,
    nextRenewal: s.nextRenewalDate,
    cost: s.monthlyCostCents,
    aiCost: s.monthlyAiCostCents,
    margin: s.activeMrr - s.monthlyCostCents,
    total: false,
  };
}

/**
 * Totals, one row per currency: adding dollars to euros would be wrong. Client counts are
 * added too (a client of two entities counts twice); the earliest renewal is kept.
 */
export function totalRows(rows: readonly EntityRow[]): EntityRow[] {
  if (rows.length < 2) return [];
  const byCurrency = new Map<string, EntityRow[]>();
  for (const r of rows) byCurrency.set(r.currency, [...(byCurrency.get(r.currency) ?? []), r]);
  return [...byCurrency.entries()].map(([currency, list]) => ({
    name: byCurrency.size > 1 ? `TOTAL (${currency})` : 'TOTAL',
    currency,
    mrr: sum(list.map((r) => r.mrr)),
    clients: sum(list.map((r) => r.clients ?? 0)),
    nextRenewal: list.map((r) => r.nextRenewal).filter((d): d is string => !!d).sort()[0] ?? null,
    cost: sum(list.map((r) => r.cost)),
    aiCost: sum(list.map((r) => r.aiCost)),
    margin: sum(list.map((r) => r.margin)),
    total: true,
  }));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function financeRows(data: FinanceSummary): { entities: EntityRow[]; totals: EntityRow[] } {
  const entities = data.summaries.map((s) => entityRow(s, entityCurrency(s.entity.id, data.invoiceAlerts)));
  return { entities, totals: totalRows(entities) };
}
