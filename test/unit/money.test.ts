import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/render/format.js';
import { entityCurrency, financeRows, totalRows, type EntityRow } from '../../src/render/finance.js';

describe('formatMoney (cents in the record currency)', () => {
  it.each([
    [1234567, 'USD', '$12,345.67'],
    [1234567, 'usd', '$12,345.67'],
    [-5000, 'USD', '-$50.00'],
    [1234567, 'EUR', '€12,345.67'],
    [99, 'GBP', '£0.99'],
    // JPY has no minor unit: the API still sends "cents" (hundredths), shown rounded to yen.
    [1234500, 'JPY', '¥12,345'],
    // A well-formed but unknown code: Intl shows the code itself before the amount.
    [1234567, 'XYZ', 'XYZ\u00a012,345.67'],
    [1234567, 'not a code', '12,345.67 NOT A CODE'],
    [0, '', '0.00'],
  ])('%d %s → %s', (cents, currency, expected) => {
    expect(formatMoney(cents, currency)).toBe(expected);
  });
});

const alert = (entity_id: string, currency: string) => ({ revenueRecord: { entity_id, currency } });

describe('finance rows', () => {
  const summary = (id: string, currency?: string | null) => ({ entity: { id, name: id, accounting_tenant_id: null, owner_id: 'u', created_at: '' }, currency });

  it("takes an entity's currency from its own field, else its records in the alerts, else none", () => {
    expect(entityCurrency(summary('e1', 'eur'), [alert('e1', 'GBP')])).toBe('EUR');
    expect(entityCurrency(summary('e1'), [alert('e1', 'eur'), alert('e2', 'JPY')])).toBe('EUR');
    expect(entityCurrency(summary('e1', null), [alert('e1', 'EUR'), alert('e1', 'GBP')])).toBeNull();
    expect(entityCurrency(summary('e3'), [alert('e1', 'EUR')])).toBeNull();
    // null from the server: no currency or mixed ones; one currency among the alerts must not name a mixed sum.
    expect(entityCurrency(summary('e1', null), [alert('e1', 'EUR')])).toBeNull();
  });

  const row = (name: string, currency: string | null, mrr: number, cost: number): EntityRow => ({
    id: `id-${name}`,
    name,
    currency,
    mrr,
    clients: 1,
    nextRenewal: null,
    cost,
    aiCost: 0,
    margin: mrr - cost,
    total: false,
  });

  it('adds no totals for one entity, one per currency otherwise', () => {
    expect(totalRows([row('a', 'USD', 100, 10)])).toEqual([]);
    const [t] = totalRows([row('a', 'USD', 100, 10), row('b', 'USD', 300, 500)]);
    expect(t).toMatchObject({ name: 'TOTAL', mrr: 400, cost: 510, margin: -110, clients: 2, total: true });
    const mixed = totalRows([row('a', 'USD', 100, 10), row('b', 'EUR', 300, 5)]);
    expect(mixed.map((r) => r.name)).toEqual(['TOTAL (USD)', 'TOTAL (EUR)']);
  });

  it('adds no amount of an unknown currency to any total', () => {
    const totals = totalRows([row('a', 'USD', 100, 10), row('b', null, 300, 5), row('c', null, 7, 0)]);
    expect(totals).toEqual([expect.objectContaining({ name: 'TOTAL (USD)', mrr: 100, cost: 10 })]);
    expect(totalRows([row('a', null, 100, 10), row('b', null, 300, 5)])).toEqual([]);
  });

  it('computes margin = MRR − monthly cost', () => {
    const { entities } = financeRows({
      summaries: [
        {
          entity: { id: 'e', name: 'E', accounting_tenant_id: null, owner_id: 'u', created_at: '' },
          activeMrr: 1000,
          activeClientCount: 2,
          nextRenewalDate: null,
          monthlyCostCents: 1500,
          monthlyAiCostCents: 200,
        },
      ],
      invoiceAlerts: [],
    });
    expect(entities[0]).toMatchObject({ margin: -500, currency: null });
  });
});
