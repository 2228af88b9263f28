import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownTime } from '../../../src/render/dates.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs } from '../../helpers/tmp.js';
import { KEYS } from '../../helpers/fixture-store.js';
import { startTestServer, type TestServer } from '../../helpers/http-server.js';
import { useHarness } from '../../helpers/harness.js';

// docs/cli-contract.md "At a terminal": relative hints come from one clock, the server's Date header when
// present, else the local clock; times show in the local time zone (TZ).
const SERVER_DATE = 'Sun, 22 Nov 2026 10:00:00 GMT';
const entity = { id: 'e', name: 'E', accounting_tenant_id: null, owner_id: 'u', created_at: '2026-01-01T00:00:00Z' };
const record = {
  id: 'r',
  entity_id: 'e',
  website_id: null,
  client_name: 'Globex',
  type: 'recurring',
  amount_cents: 100,
  currency: 'USD',
  billing_frequency: 'monthly',
  next_invoice_date: '2026-11-20',
  last_invoiced_at: null,
  status: 'active',
  renewal_date: null,
  payment_terms: null,
  started_at: '2026-01-01T00:00:00Z',
  ended_at: null,
  notes: null,
  product_line_id: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const finance = {
  summaries: [{ entity, activeMrr: 100, activeClientCount: 1, nextRenewalDate: '2026-12-01', monthlyCostCents: 0, monthlyAiCostCents: 0 }],
  invoiceAlerts: [{ revenueRecord: record, entityName: 'E', daysUntilDue: -2, isOverdue: true }],
};

let stub: TestServer;
beforeAll(async () => {
  stub = await startTestServer({ status: 200, body: { success: true, data: finance }, headers: { date: SERVER_DATE } });
});
afterAll(async () => {
  await stub.close();
  cleanupTempDirs();
});

describe('one clock for relative hints', () => {
  it("renewal and invoice hints both count from the server's Date header, not the local clock", async () => {
    // The local clock is three weeks off: were it used, the hints would say so.
    const r = await runCli(['finance', 'summary'], { tty: true, env: { CR_BASE_URL: stub.baseUrl, CR_API_KEY: KEYS.editor, CR_NOW: '2026-11-01T00:00:00Z', COLUMNS: '160' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('2026-12-01 (in 9 days)');
    expect(r.stdout).toContain('2026-11-20 (2 days ago)');
  });

  it('no Date header, or a broken one: the local clock', () => {
    const local = () => new Date('2026-11-01T00:00:00Z');
    expect(shownTime({}, local).now.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(shownTime({}, local, { date: 'yesterday-ish' }).now.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(shownTime({}, local, { date: SERVER_DATE }).now.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });
});

describe('times in the local time zone', () => {
  const h = useHarness();
  it('TZ decides the zone on a terminal; piped TSV keeps the plain ISO value', async () => {
    const berlin = await h.cr(['nurture', 'list', '--limit', '1'], { tty: true, env: { TZ: 'Europe/Berlin', COLUMNS: '160' } });
    expect(berlin.stdout).toContain('2026-11-22 11:00 GMT+1 (');
    const utc = await h.cr(['nurture', 'list', '--limit', '1'], { tty: true, env: { TZ: 'UTC', COLUMNS: '160' } });
    expect(utc.stdout).toContain('2026-11-22 10:00 UTC (');
    const piped = await h.cr(['nurture', 'list', '--limit', '1'], { env: { TZ: 'Europe/Berlin' } });
    expect(piped.stdout.trimEnd().split('\t').at(-1)).toBe('2026-11-22T10:00:00.000Z');
  });

  it("the local server's Date header is its business clock (CR_NOW), so the hints agree with its answers", async () => {
    const res = await fetch(`${h.baseUrl}/finance/summary`, { headers: { authorization: `Bearer ${KEYS.editor}` } });
    expect(res.headers.get('date')).toBe(SERVER_DATE);
  });
});
