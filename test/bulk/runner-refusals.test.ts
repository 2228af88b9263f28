import { describe, expect, it } from 'vitest';
import { runRows } from '../../src/bulk/runner.js';
import type { SendOutcome } from '../../src/bulk/send.js';
import type { PlanRow } from '../../src/bulk/types.js';
import { exitOf } from '../../src/bulk/outcome.js';

/**
 * Which refusals stop a bulk run (docs/cli-contract.md "For CI jobs: bulk scheduling"), and
 * how transient failures are sent again, with a sender that answers per row.
 */
const row = (i: number, websiteId?: string): PlanRow => ({ line: i + 1, id: `id-${i}`, at: 'x', when: new Date(0), wire: 'x', websiteId });
const ok: SendOutcome = { ok: true, status: 200, headers: {}, scheduledAt: 'x' };
const forbidden: SendOutcome = { ok: false, status: 403, headers: {}, error: 'Website not in key scope', code: 'FORBIDDEN', exit: 4 };
const unavailable: SendOutcome = { ok: false, status: 503, headers: {}, error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', exit: 8, retryable: true };

const run = (rows: PlanRow[], send: (r: PlanRow) => Promise<SendOutcome>, extra: { retry?: number } = {}) =>
  runRows({ rows, concurrency: 1, wait: false, send, signal: new AbortController().signal, onResult: async () => {}, retryBaseMs: 1, ...extra });

describe('runRows: refusals', () => {
  it("a 403 for a row's own website, after rows of another website worked, fails that row alone", async () => {
    const rows = [row(1, 'A'), row(2, 'A'), row(3, 'B'), row(4, 'A'), row(5, 'A')];
    const out = await run(rows, async (r) => (r.websiteId === 'B' ? forbidden : ok));
    const status = new Map(out.results.map((r) => [r.row.line, r.status]));
    expect([...status.entries()].sort()).toEqual([
      [2, 'scheduled'],
      [3, 'scheduled'],
      [4, 'failed'],
      [5, 'scheduled'],
      [6, 'scheduled'],
    ]);
    expect(out.stop).toBeUndefined();
    expect(exitOf(out.results, out.stop, out.authExit)).toBe(4);
  });

  it('a foreign website first does not stop the run either, while the rows after it work', async () => {
    const out = await run([row(1, 'B'), row(2, 'A'), row(3, 'A')], async (r) => (r.websiteId === 'B' ? forbidden : ok));
    expect(out.results.map((r) => r.status).sort()).toEqual(['failed', 'scheduled', 'scheduled']);
    expect(out.stop).toBeUndefined();
  });

  it('a role refusal (403 on every row, rows of two websites, none worked) stops the run: exit 4, the rest not sent', async () => {
    let sent = 0;
    const out = await run([row(1, 'A'), row(2, 'B'), row(3, 'A'), row(4, 'B')], async () => {
      sent++;
      return forbidden;
    });
    expect(sent).toBe(2);
    expect(out.stop).toBe('auth');
    expect(out.results.filter((r) => r.status === 'not_sent')).toHaveLength(2);
    expect(exitOf(out.results, out.stop, out.authExit)).toBe(4);
  });

  it('a 403 on a row that names no website is the key refused: the run stops', async () => {
    const out = await run([row(1), row(2), row(3)], async () => forbidden);
    expect(out.stop).toBe('auth');
    expect(out.results.filter((r) => r.status === 'not_sent')).toHaveLength(2);
  });

  it('a 401 stops the run even after rows worked', async () => {
    let n = 0;
    const out = await run([row(1, 'A'), row(2, 'A'), row(3, 'A')], async () => (++n === 1 ? ok : { ok: false, status: 401, headers: {}, error: 'Invalid API key', code: 'INVALID_API_KEY', exit: 3 }));
    expect(out.stop).toBe('auth');
    expect(exitOf(out.results, out.stop, out.authExit)).toBe(3);
  });
});

describe('runRows: --retry', () => {
  it('sends a row again after a 503, up to N times, and counts the retries', async () => {
    const fails = new Map([
      ['id-1', 2],
      ['id-2', 0],
      ['id-3', 9],
    ]);
    const sent: string[] = [];
    const out = await run(
      [row(1, 'A'), row(2, 'A'), row(3, 'A')],
      async (r) => {
        sent.push(r.id);
        const left = fails.get(r.id)!;
        fails.set(r.id, left - 1);
        return left > 0 ? unavailable : ok;
      },
      { retry: 3 },
    );
    const by = new Map(out.results.map((r) => [r.row.id, r]));
    expect(by.get('id-1')).toMatchObject({ status: 'scheduled', retries: 2 });
    expect(by.get('id-2')).toMatchObject({ status: 'scheduled' });
    expect(by.get('id-2')?.retries).toBeUndefined();
    expect(by.get('id-3')).toMatchObject({ status: 'failed', code: 'SERVICE_UNAVAILABLE', retries: 3 });
    expect(sent.filter((id) => id === 'id-3')).toHaveLength(4);
  });

  it('--retry 0 and a failure that is not transient are never sent again', async () => {
    let sent = 0;
    const out = await run([row(1, 'A')], async () => (sent++, unavailable), { retry: 0 });
    expect(sent).toBe(1);
    expect(out.results[0]).toMatchObject({ status: 'failed' });
    sent = 0;
    await run([row(1, 'A')], async () => (sent++, { ...forbidden, retryable: false }), { retry: 5 });
    expect(sent).toBe(1);
  });
});
