import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { COLLECTION_NAMES } from '../store/collections.js';
import type { StoreData } from '../store/schema.js';
import { columnsOf, revenueColumnsOf } from './derive.js';
import type { PgStore } from './pg-store.js';
import { transaction, type Tx } from './transaction.js';

/** A database that already holds records: `cr local copy` never merges into one. */
export class DestinationNotEmptyError extends Error {
  constructor(readonly records: number) {
    super(`the destination already holds ${records} records; copy only into an empty store`);
  }
}

/** COPY's text format: backslash, tab, newline and carriage return escaped; \N is null. */
const field = (v: string | number | boolean | null): string =>
  v === null ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const line = (values: (string | number | boolean | null)[]) => `${values.map(field).join('\t')}\n`;

/**
 * Rows for a COPY stream, sent in chunks of about 256 KiB and waiting for the stream to drain,
 * so millions of rows never sit in memory and no row costs a write call of its own (one call
 * per row was a third of the load time).
 */
class CopyWriter {
  private chunk = '';
  private failed?: Error;
  /** Settles once the stream's last data is sent (its _final runs): postgres.js takes other statements from then on. */
  private readonly sent: Promise<void>;
  constructor(private readonly stream: Writable) {
    this.sent = new Promise((resolve) => {
      const final = stream._final.bind(stream);
      stream._final = (callback) => {
        final(callback);
        resolve();
      };
    });
    // The database can fail the COPY at any time (a row it refuses, the connection dropped):
    // an 'error' while no write waits for a drain would have no listener and end the process.
    // Kept, and thrown by the next put() or by finish().
    stream.on('error', (err: Error) => {
      this.failed ??= err;
    });
  }
  async put(text: string): Promise<void> {
    if (this.failed) throw this.failed;
    this.chunk += text;
    if (this.chunk.length < 262_144) return;
    const full = this.chunk;
    this.chunk = '';
    if (!this.stream.write(full)) await once(this.stream, 'drain');
  }
  /**
   * Ends the COPY. postgres.js finishes the stream only when the COPY completes: one the
   * database refuses part-way (a row it rejects, its disk full) never finishes, and the
   * database's error goes nowhere (its connection.js: the COPY's query was already resolved
   * with the stream), so waiting for 'finish' alone would wait for ever. A statement queued
   * behind the COPY on the transaction's connection (once postgres.js takes one: it refuses
   * any while the COPY's stream takes data) is refused when the COPY failed (the transaction
   * is aborted), which ends the wait with an error.
   */
  async finish(tx: Tx): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.chunk) this.stream.write(this.chunk);
    this.stream.end();
    await Promise.all([
      finished(this.stream),
      this.sent
        .then(() => tx`SELECT 1`)
        .catch((err: unknown) => {
          throw Object.assign(new Error(`the database refused the load part-way (its log says why); nothing was written: ${(err as Error).message}`), {
            cause: err,
          });
        }),
    ]);
  }
}

/**
 * Loads a whole store into an empty PostgreSQL store in one transaction with COPY (the way
 * `cr local copy` reaches 2 million revenue records in well under two minutes:
 * docs/shared-sandbox.md), then builds the finance running totals with three set-based
 * statements instead of a trigger call per row. Nothing is visible until it all commits.
 */
export async function loadInto(store: PgStore, data: StoreData): Promise<{ records: number }> {
  let records = 0;
  for (const name of COLLECTION_NAMES) records += data[name].length;
  await transaction(store.sql, async (tx) => {
    await tx`LOCK TABLE cr_records, cr_revenue IN EXCLUSIVE MODE`;
    const [held] = await tx`SELECT count(*)::int AS n FROM cr_records`;
    if (held!.n > 0) throw new DestinationNotEmptyError(held!.n);
    // This transaction's own memory for sorting and grouping (a session setting: the
    // database's settings stay as they are): the index builds and the totals below.
    await tx`SET LOCAL maintenance_work_mem = '256MB'`;
    await tx`SET LOCAL work_mem = '64MB'`;
    const rebuild = await setAsideChecks(tx);
    const [last] = await tx`SELECT setval(pg_get_serial_sequence('cr_records', 'seq'), coalesce((SELECT max(seq) FROM cr_records), 0) + ${records + 1}) AS top`;
    let seq = Number(last!.top) - records;
    let revenueFirstSeq = 0;
    // The triggers (finance totals, finance version) are for single writes: the load does
    // their work once, set-based, below.
    await tx`ALTER TABLE cr_records DISABLE TRIGGER USER`;
    const rows = new CopyWriter(await tx`COPY cr_records (seq, collection, id, website_id, lookup, body) FROM STDIN`.writable());
    for (const name of COLLECTION_NAMES) {
      if (name === 'revenue_records') revenueFirstSeq = seq;
      for (const record of data[name] as unknown as Record<string, unknown>[]) {
        const c = columnsOf(name, record);
        await rows.put(line([seq++, name, c.id, c.websiteId, c.lookup, JSON.stringify(record)]));
      }
    }
    await rows.finish(tx);
    await tx`ALTER TABLE cr_revenue DISABLE TRIGGER USER`;
    const rev = new CopyWriter(
      await tx`COPY cr_revenue (seq, entity_id, active, monthly_cents, client_name, currency, renewal_date, next_invoice_date) FROM STDIN`.writable(),
    );
    let revenueSeq = revenueFirstSeq;
    for (const record of data.revenue_records as unknown as Record<string, unknown>[]) {
      const r = revenueColumnsOf(record);
      await rev.put(line([revenueSeq++, r.entityId, r.active, r.monthlyCents, r.clientName, r.currency, r.renewalDate, r.nextInvoiceDate]));
    }
    await rev.finish(tx);
    await tx`ALTER TABLE cr_revenue ENABLE TRIGGER USER`;
    await tx`ALTER TABLE cr_records ENABLE TRIGGER USER`;
    await rebuild();
    await rebuildTotals(tx);
    await tx`SELECT cr_finance_bump()`;
    // Statistics for the planner from the first query on (autovacuum would gather them only
    // later): the summary's plans depend on them. ANALYZE samples, so it stays a second or two.
    await tx`ANALYZE cr_records, cr_revenue, cr_entity_totals, cr_entity_clients, cr_entity_currencies`;
  });
  return { records };
}

/**
 * Drops the secondary indexes and the foreign key of the two tables COPY fills, and returns
 * what builds them again exactly as the migrations made them (their definitions read back
 * from the catalog). One index build and one join checking every revenue row's record cost
 * far less than keeping four indexes and a foreign-key lookup per row: that was most of the
 * load's time (2,000,000 revenue records: docs/benchmarks.md, "PostgreSQL store"). All in the
 * load's transaction: a duplicate id or a dangling row fails the load and nothing changes.
 */
async function setAsideChecks(tx: Tx): Promise<() => Promise<void>> {
  const indexes = await tx`
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
    WHERE i.indrelid IN ('cr_records'::regclass, 'cr_revenue'::regclass) AND NOT i.indisprimary
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`;
  const keys = await tx`
    SELECT conname AS name, conrelid::regclass::text AS tbl, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype = 'f' AND conrelid IN ('cr_records'::regclass, 'cr_revenue'::regclass)`;
  // Names as the catalog gives them: regclass text comes quoted where it must be; a constraint's name is quoted here.
  const constraint = (k: Record<string, unknown>) => `ALTER TABLE ${k.tbl as string} %s CONSTRAINT "${(k.name as string).replace(/"/g, '""')}"`;
  for (const k of keys) await tx.unsafe(constraint(k).replace('%s', 'DROP'));
  for (const i of indexes) await tx.unsafe(`DROP INDEX ${i.name as string}`);
  return async () => {
    for (const i of indexes) await tx.unsafe(i.def as string);
    for (const k of keys) await tx.unsafe(`${constraint(k).replace('%s', 'ADD')} ${k.def as string}`);
  };
}

/** The running totals of migrations.ts, computed afresh from every revenue row. */
async function rebuildTotals(tx: Tx): Promise<void> {
  await tx`TRUNCATE cr_entity_totals, cr_entity_clients, cr_entity_currencies`;
  await tx`INSERT INTO cr_entity_currencies (entity_id, currency, n) SELECT entity_id, currency, count(*) FROM cr_revenue GROUP BY 1, 2 ORDER BY 1, 2`;
  await tx`INSERT INTO cr_entity_clients (entity_id, client_name, n) SELECT entity_id, client_name, count(*) FROM cr_revenue WHERE active GROUP BY 1, 2 ORDER BY 1, 2`;
  await tx`
    INSERT INTO cr_entity_totals (entity_id, active_mrr, active_clients)
    SELECT t.entity_id, t.mrr, coalesce(c.n, 0)
    FROM (SELECT entity_id, sum(monthly_cents) AS mrr FROM cr_revenue WHERE active GROUP BY 1) t
    LEFT JOIN (SELECT entity_id, count(*) AS n FROM cr_entity_clients GROUP BY 1) c USING (entity_id)`;
}
