import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/serve.js';
import { fixedClock } from '../../../src/server/domain/clock.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { fixtureStore, KEYS, NOW } from '../../helpers/fixture-store.js';
import { ok, startTestServer, type TestServer } from '../../helpers/http-server.js';
import { storeFrom } from '../../helpers/store-under-test.js';

// docs/cli-contract.md "Money totals are per currency". The published summary carries no currency: the
// local server adds one (docs/api-decisions.md); without it the CLI shows no symbol and
// adds nothing up across entities it cannot tell apart.
let server: Awaited<ReturnType<typeof startServer>>;
let stub: TestServer;
let withoutField: unknown;

beforeAll(async () => {
  const s = fixtureStore();
  // Two entities, in EUR and GBP, with no invoice due this week: no alert tells a currency.
  s.revenue_records = [
    { ...s.revenue_records[0]!, entity_id: 'ent-a', currency: 'EUR', next_invoice_date: '2027-02-01' },
    { ...s.revenue_records[2]!, entity_id: 'ent-b', currency: 'gbp', next_invoice_date: '2027-03-01' },
  ];
  const storePath = join(tempDir('cr-currency-'), 'store.json');
  writeFileSync(storePath, JSON.stringify(s));
  server = await startServer({ storePath: await storeFrom(storePath), host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
  const res = await fetch(`${server.url}/api/v1/finance/summary`, { headers: { authorization: `Bearer ${KEYS.editor}` } });
  const body = (await res.json()) as { data: { summaries: Record<string, unknown>[]; invoiceAlerts: unknown[] } };
  // The hosted API's shape: the same answer without the local server's extension.
  withoutField = { ...body.data, summaries: body.data.summaries.map(({ currency: _drop, ...rest }) => rest) };
  stub = await startTestServer(ok(withoutField));
});
afterAll(async () => {
  await server.close();
  await stub.close();
  cleanupTempDirs();
});

const summary = (baseUrl: string, tty = true) => runCli(['finance', 'summary'], { tty, env: { CR_BASE_URL: baseUrl, CR_API_KEY: KEYS.editor, CR_NOW: NOW, COLUMNS: '160' } });

describe('cr finance summary: money per currency', () => {
  it('the local server sends each entity its currency', async () => {
    const res = await fetch(`${server.url}/api/v1/finance/summary`, { headers: { authorization: `Bearer ${KEYS.editor}` } });
    const body = (await res.json()) as { data: { summaries: { entity: { id: string }; currency: string | null }[]; invoiceAlerts: unknown[] } };
    expect(body.data.invoiceAlerts).toEqual([]);
    expect(body.data.summaries.map((x) => [x.entity.id, x.currency])).toEqual([
      ['ent-a', 'EUR'],
      ['ent-b', 'GBP'],
    ]);
  });

  it('with the field: € and £, never $, and one TOTAL row per currency', async () => {
    const r = await summary(`${server.url}/api/v1`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('€12,345.67');
    expect(r.stdout).toContain('£5,000.00');
    expect(r.stdout).not.toContain('$');
    expect(r.stdout.match(/TOTAL/g)).toHaveLength(2);
    expect(r.stdout).toContain('TOTAL (EUR)');
    expect(r.stdout).toContain('TOTAL (GBP)');
  });

  it('without the field (the published API): plain amounts, no symbol, no total across entities', async () => {
    const r = await summary(stub.baseUrl);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('12,345.67');
    expect(r.stdout).toContain('5,000.00');
    expect(r.stdout).not.toMatch(/[$€£]/);
    expect(r.stdout).not.toContain('TOTAL');
    expect(r.stdout).not.toContain('17,345.67'); // the two amounts added up
  });

  it('piped without the field: the same plain amounts', async () => {
    const r = await summary(stub.baseUrl, false);
    expect(r.stdout).not.toMatch(/[$€£]/);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('entity\t'))).toHaveLength(2);
  });
});
