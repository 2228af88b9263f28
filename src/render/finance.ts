/**
 * Rows of `cr finance summary`. The published EntitySummary carries no currency: an
 * entity's currency is its `currency` field when the server adds one (the local server
 * does, docs/api-decisions.md), else the one currency of its revenue records seen in the
 * invoice alerts. When neither tells, the CLI does not guess: the amounts are shown as
 * plain decimals and left out of every total (docs/cli-contract.md "Money totals are per currency").
 */
import type { EntitySummary, FinanceSummary, InvoiceAlert } from '../api/schemas/finance.js';

export interface EntityRow {
  /** The entity's id; null on a total row. */
  id: string | null;
  name: string;
  /** Null when unknown: no symbol, no total. */
  currency: string | null;
  mrr: number;
  clients: number | null;
  nextRenewal: string | null;
  cost: number;
  aiCost: number;
  margin: number;
  total: boolean;
}

/**
 * The entity's own `currency` when sent, else the one currency of its records among the
 * alerts; null when unknown. A `currency: null` from the server means no currency or mixed
 * ones (docs/api-decisions.md): the alerts may show only one of them, so they are not asked.
 */
export function entityCurrency(
  summary: Pick<EntitySummary, 'entity'> & { currency?: unknown },
  alerts: readonly { revenueRecord: Pick<InvoiceAlert['revenueRecord'], 'entity_id' | 'currency'> }[],
): string | null {
  if (typeof summary.currency === 'string' && summary.currency) return summary.currency.toUpperCase();
  if (summary.currency === null) return null;
  const seen = new Set(
    alerts.filter((a) => a.revenueRecord.entity_id === summary.entity.id && a.revenueRecord.currency).map((a) => a.revenueRecord.currency.toUpperCase()),
  );
  return seen.size === 1 ? [...seen][0]! : null;
}

export function entityRow(s: EntitySummary, currency: string | null): EntityRow {
  return {
    id: s.entity.id,
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
 * Totals, one row per known currency: adding dollars to euros would be wrong, and so
 * would adding amounts of an unknown currency to anything. Client counts are added too (a
 * client of two entities counts twice); the earliest renewal is kept.
 */
export function totalRows(rows: readonly EntityRow[]): EntityRow[] {
  if (rows.length < 2) return [];
  const byCurrency = new Map<string, EntityRow[]>();
  for (const r of rows) if (r.currency) byCurrency.set(r.currency, [...(byCurrency.get(r.currency) ?? []), r]);
  const named = byCurrency.size > 1 || rows.some((r) => !r.currency);
  return [...byCurrency.entries()].map(([currency, list]) => ({
    id: null,
    name: named ? `TOTAL (${currency})` : 'TOTAL',
    currency,
    mrr: sum(list.map((r) => r.mrr)),
    clients: sum(list.map((r) => r.clients ?? 0)),
    nextRenewal:
      list
        .map((r) => r.nextRenewal)
        .filter((d): d is string => !!d)
        .sort()[0] ?? null,
    cost: sum(list.map((r) => r.cost)),
    aiCost: sum(list.map((r) => r.aiCost)),
    margin: sum(list.map((r) => r.margin)),
    total: true,
  }));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function financeRows(data: FinanceSummary): { entities: EntityRow[]; totals: EntityRow[] } {
  const entities = data.summaries.map((s) => entityRow(s, entityCurrency(s, data.invoiceAlerts)));
  return { entities, totals: totalRows(entities) };
}
