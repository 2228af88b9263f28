import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { routes } from '../../src/api/routes.js';
import type { FinanceSummary, InvoiceAlert } from '../../src/api/schemas/finance.js';
import { websiteParam } from '../../src/dry-run.js';
import { render, tsvCells, writeJson, writeTsv, type Column } from '../../src/render/output.js';
import { formatDateHint, formatMoney, relativeDays } from '../../src/render/format.js';
import { financeRows, type EntityRow } from '../../src/render/finance.js';

export const summaryCommand = (ctx: Context) =>
  withExamples(
    new Command('summary').description('MRR, clients, costs and margin per business entity, and invoices due within 7 days').action(() => summary(ctx)),
    ['cr finance summary', "cr finance summary --json | jq '.invoiceAlerts[] | select(.isOverdue) | .revenueRecord.client_name'"],
  );

export async function summary(ctx: Context): Promise<void> {
  const client = await ctx.api();
  // Finance is not website data; website_id is still sent when given (cli.md: every command).
  const res = await client.call(routes.getFinanceSummary, { query: websiteParam(ctx) });
  if (ctx.globals.json) return writeJson(ctx.io, res.raw);
  await show(ctx, res.data);
}

const money = (pick: (r: EntityRow) => number) => (r: EntityRow) => formatMoney(pick(r), r.currency);

async function show(ctx: Context, data: FinanceSummary): Promise<void> {
  const now = ctx.now();
  const { entities, totals } = financeRows(data);
  const entityColumns: Column<EntityRow>[] = [
    { header: 'ENTITY', value: (r) => r.name, style: (t, r, s) => (r.total ? s.bold(t) : t) },
    { header: 'MRR', value: money((r) => r.mrr), align: 'right' },
    { header: 'ACTIVE CLIENTS', value: (r) => r.clients, align: 'right' },
    { header: 'NEXT RENEWAL', value: (r) => formatDateHint(r.nextRenewal, now) },
    { header: 'MONTHLY COST', value: money((r) => r.cost), align: 'right' },
    { header: 'AI COST', value: money((r) => r.aiCost), align: 'right' },
    { header: 'MARGIN', value: money((r) => r.margin), align: 'right', style: (t, r, s) => (r.margin < 0 ? s.red(t) : s.green(t)) },
  ];
  const alertColumns: Column<InvoiceAlert>[] = [
    { header: 'CLIENT', value: (a) => a.revenueRecord.client_name },
    { header: 'ENTITY', value: (a) => a.entityName },
    { header: 'AMOUNT', value: (a) => formatMoney(a.revenueRecord.amount_cents, a.revenueRecord.currency), align: 'right' },
    // The server's daysUntilDue is authoritative for the hint (its clock decides "today").
    { header: 'DUE', value: (a) => dueText(a), style: (t, a, s) => (a.isOverdue ? s.red(t) : t) },
    { header: 'STATUS', value: (a) => (a.isOverdue ? 'OVERDUE' : a.daysUntilDue === 0 ? 'due today' : 'due'), style: (t, a, s) => (a.isOverdue ? s.bold.red(t) : t) },
  ];
  if (!ctx.io.tty.out) {
    // Two tables in one stream: a leading kind column tells them apart for `grep`/`awk`.
    writeTsv(ctx.io, entities.map((r) => ['entity', ...tsvCells(ctx.io, entityColumns, r)]));
    writeTsv(ctx.io, data.invoiceAlerts.map((a) => ['invoice', ...tsvCells(ctx.io, alertColumns, a)]));
    return;
  }
  await render(ctx.io, { json: false, data }, [
    { title: 'Business entities', rows: [...entities, ...totals], columns: entityColumns, empty: 'No business entities.' },
    { title: 'Invoice alerts (due within 7 days)', rows: data.invoiceAlerts, columns: alertColumns, empty: 'No invoices due in the next 7 days.' },
  ] as never);
}

function dueText(a: InvoiceAlert): string {
  const date = a.revenueRecord.next_invoice_date;
  if (!date) return '-';
  return `${date.slice(0, 10)} (${relativeDays(a.daysUntilDue)})`;
}
