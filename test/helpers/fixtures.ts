/** A finance summary exactly as the API's data schema describes it. */
export function financeData() {
  return {
    summaries: [
      {
        entity: { id: 'ent-1', name: 'Acme Studio', accounting_tenant_id: null, owner_id: 'user-1', created_at: '2026-01-01T00:00:00.000Z' },
        activeMrr: 1234567,
        activeClientCount: 3,
        nextRenewalDate: '2026-12-01',
        monthlyCostCents: 50000,
        monthlyAiCostCents: 1200,
      },
    ],
    invoiceAlerts: [],
  };
}

export const financeEnvelope = () => ({ success: true, data: financeData() });
