import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { FinanceSummary, InvoiceAlert } from '../../src/api/schemas/finance.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render, table } from '../../src/render/output.js';
import type { Column, CsvColumn } from '../../src/render/view.js';
import { csvAmount } from '../../src/render/csv.js';
import { formatMoney } from '../../src/render/format.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';
import { financeRows, type EntityRow } from '../../src/render/finance.js';

export const summaryCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('summary').description('MRR, clients, costs and margin per business entity, and invoices due within 7 days').action(() => summary(ctx)),
      [
        'cr finance summary',
        "cr finance summary --jq '.invoiceAlerts[] | select(.isOverdue) | .revenueRecord.client_name'",
        'cr finance summary --csv > entities.csv',
      ],
    ),
    // --csv: the entity rows only (one header a stream); the invoice alerts are in --json and --jq.
    { jq: true, csv: true },
  );

export async function summary(ctx: Context): Promise<void> {
  const client = await ctx.api();
  // Finance is not website data; website_id is still sent when given (docs/cli-contract.md: every command).
  const res = await client.call(routes.getFinanceSummary, { query: websiteParam(ctx) });
  await show(ctx, res.data, res.raw, res.response.headers);
}

const money = (pick: (r: EntityRow) => number) => (r: EntityRow) => formatMoney(pick(r), r.currency);

async function show(ctx: Context, data: FinanceSummary, raw: unknown, headers: Record<string, string>): Promise<void> {
  // One clock for renewal and invoice hints: the server's Date header, else the local clock.
  const when = shownTime(ctx.env, ctx.now, headers);
  const { entities, totals } = financeRows(data);
  // Piped, money is a plain decimal amount beside its currency (docs/cli-contract.md "For scripts").
  const entityColumns: Column<EntityRow>[] = [
    { header: 'ID', kind: 'id', value: (r) => r.id ?? '' },
    { header: 'ENTITY', name: true, value: (r) => r.name, style: (t, r, s) => (r.total ? s.bold(t) : t) },
    { header: 'CURRENCY', kind: 'code', value: (r) => r.currency, tsvOnly: true },
    { header: 'MRR', kind: 'money', value: money((r) => r.mrr), plain: (r) => csvAmount(r.mrr), align: 'right' },
    { header: 'CLIENTS', kind: 'number', value: (r) => r.clients, align: 'right' },
    dateColumn('RENEWAL', (r) => r.nextRenewal, when),
    { header: 'COST', kind: 'money', value: money((r) => r.cost), plain: (r) => csvAmount(r.cost), align: 'right' },
    { header: 'AI COST', kind: 'money', value: money((r) => r.aiCost), plain: (r) => csvAmount(r.aiCost), align: 'right' },
    {
      header: 'MARGIN',
      kind: 'money',
      value: money((r) => r.margin),
      plain: (r) => csvAmount(r.margin),
      align: 'right',
      style: (t, r, s) => (r.margin < 0 ? s.red(t) : s.green(t)),
    },
  ];
  // CSV: the JSON fields of each summary, exactly (amounts in cents, as the API sends them), and the
  // entity's currency (docs/cli-contract.md "For scripts"); the margin is the table's sum, not a field.
  const entityCsv: CsvColumn<EntityRow>[] = [
    { header: 'entity.id', value: (r) => r.id },
    { header: 'entity.name', value: (r) => r.name },
    { header: 'currency', value: (r) => r.currency },
    { header: 'activeMrr', value: (r) => r.mrr },
    { header: 'activeClientCount', value: (r) => r.clients },
    { header: 'nextRenewalDate', value: (r) => r.nextRenewal },
    { header: 'monthlyCostCents', value: (r) => r.cost },
    { header: 'monthlyAiCostCents', value: (r) => r.aiCost },
  ];
  const alertColumns: Column<InvoiceAlert>[] = [
    { header: 'ID', kind: 'id', value: (a) => a.revenueRecord.id },
    { header: 'CLIENT', name: true, value: (a) => a.revenueRecord.client_name },
    { header: 'ENTITY', value: (a) => a.entityName },
    { header: 'CURRENCY', kind: 'code', value: (a) => a.revenueRecord.currency || null, tsvOnly: true },
    {
      header: 'AMOUNT',
      kind: 'money',
      value: (a) => formatMoney(a.revenueRecord.amount_cents, a.revenueRecord.currency || null),
      plain: (a) => csvAmount(a.revenueRecord.amount_cents),
      align: 'right',
    },
    { ...dateColumn('DUE', (a) => a.revenueRecord.next_invoice_date, when), style: (t, a, s) => (a.isOverdue ? s.red(t) : t) },
    {
      header: 'STATUS',
      kind: 'code',
      value: (a) => (a.isOverdue ? 'OVERDUE' : a.daysUntilDue === 0 ? 'due today' : 'due'),
      style: (t, a, s) => (a.isOverdue ? s.bold.red(t) : t),
    },
  ];
  // Piped, two tables share one stream: a leading kind column tells them apart for `grep`/`awk`.
  await render(ctx.io, { ...ctx.globals, data: raw }, [
    table({
      title: 'Business entities',
      rows: entities,
      totals,
      columns: entityColumns,
      csvColumns: entityCsv,
      empty: 'No business entities.',
      tsvTag: 'entity',
    }),
    table({
      title: 'Invoice alerts (due within 7 days)',
      rows: data.invoiceAlerts,
      columns: alertColumns,
      empty: 'No invoices due in the next 7 days.',
      tsvTag: 'invoice',
    }),
  ]);
}
