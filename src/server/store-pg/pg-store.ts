import type { Sql, TransactionSql } from 'postgres';
import { COLLECTION_NAMES, emptyStore } from '../store/schema.js';
import type { CollectionName, RecordOf, StoreData } from '../store/schema.js';
import type { Mutation } from '../store/batch.js';
import { columnsOf, revenueColumnsOf } from './derive.js';
import { migrate } from './migrate.js';
import { WINDOW_MS } from '../rate-limit.js';

type Row = Record<string, unknown>;
type Tx = TransactionSql<Record<string, never>>;

export interface PgStoreOptions {
  /** Connections in this server's pool (default 20). */
  max?: number;
}

/**
 * The PostgreSQL store (docs/shared-sandbox.md): the same collections as the JSON file store,
 * one row per record, every write one transaction. Nothing is cached in this process: any
 * number of servers on one database read each other's commits at once.
 */
export class PgStore {
  readonly kind = 'postgres';

  private constructor(
    readonly url: string,
    readonly sql: Sql,
  ) {}

  /** Connects (loading the client only now: no other command pays for it) and migrates. */
  static async open(url: string, opts: PgStoreOptions = {}): Promise<PgStore> {
    const { default: postgres } = await import('postgres');
    const sql = postgres(url, { max: opts.max ?? 20, onnotice: () => undefined, connection: { application_name: 'cr serve' } });
    try {
      await migrate(sql);
    } catch (err) {
      await sql.end({ timeout: 1 });
      throw err;
    }
    return new PgStore(url, sql);
  }

  async list<C extends CollectionName>(collection: C, opts: { websiteIds?: Iterable<string> } = {}): Promise<RecordOf<C>[]> {
    const rows = opts.websiteIds
      ? await this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND website_id = ANY(${[...opts.websiteIds]}) ORDER BY seq`
      : await this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} ORDER BY seq`;
    return rows.map((r) => JSON.parse(r.b as string) as RecordOf<C>);
  }

  async get<C extends CollectionName>(collection: C, id: string): Promise<RecordOf<C> | undefined> {
    const [row] = await this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND id = ${id}`;
    return row ? (JSON.parse(row.b as string) as RecordOf<C>) : undefined;
  }

  /** Records of a collection by their lookup field (derive.ts: a key's sha256, an entity's owner…). */
  async findBy<C extends CollectionName>(collection: C, values: readonly string[]): Promise<RecordOf<C>[]> {
    if (values.length === 0) return [];
    const rows = await this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND lookup = ANY(${values as string[]}) ORDER BY seq`;
    return rows.map((r) => JSON.parse(r.b as string) as RecordOf<C>);
  }

  /** Applies one write's mutations in one transaction: all of them or none, durable when it resolves. */
  async commit(mutations: readonly Mutation[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      for (const m of mutations) {
        if (m.op === 'insert') await insertRecord(tx, m.collection, m.record);
        else await patchRecord(tx, m.collection, m.id, m.patch);
      }
    });
  }

  /** Inserts or replaces records by id, in one transaction (seed, copy). */
  async upsert(data: Partial<Record<CollectionName, Row[]>>): Promise<void> {
    await this.sql.begin(async (tx) => {
      for (const collection of COLLECTION_NAMES) {
        for (const record of data[collection] ?? []) {
          const id = typeof record.id === 'string' ? record.id : null;
          if (id !== null) await tx`DELETE FROM cr_records WHERE collection = ${collection} AND id = ${id}`;
          await insertRecord(tx, collection, record);
        }
      }
    });
  }

  /**
   * Counts one request of the key in its fixed window (docs/api-decisions.md §3) and returns the
   * window as it is after this request: one upsert, so servers sharing the database count
   * exactly. A window that ended, or starts in the future, starts again at `now`.
   */
  async rateHit(keyId: string, now: number): Promise<{ start: number; count: number }> {
    const [row] = await this.sql`
      INSERT INTO cr_rate_windows AS w (key_id, window_start, count) VALUES (${keyId}, ${now}, 1)
      ON CONFLICT (key_id) DO UPDATE SET
        window_start = CASE WHEN w.window_start <= ${now} AND ${now} < w.window_start + ${WINDOW_MS} THEN w.window_start ELSE ${now} END,
        count = CASE WHEN w.window_start <= ${now} AND ${now} < w.window_start + ${WINDOW_MS} THEN w.count + 1 ELSE 1 END
      RETURNING window_start::float8 AS start, count`;
    return { start: Number(row!.start), count: Number(row!.count) };
  }

  /** The key's window without counting (MCP exchanges without a tool call). */
  async ratePeek(keyId: string, now: number): Promise<{ start: number; count: number }> {
    const [row] = await this.sql`SELECT window_start::float8 AS start, count FROM cr_rate_windows WHERE key_id = ${keyId}`;
    const start = row ? Number(row.start) : now;
    return start <= now && now < start + WINDOW_MS && row ? { start, count: Number(row.count) } : { start: now, count: 0 };
  }

  /** Every record, in store order: the data of `cr local export` and `cr local copy`. */
  async exportData(): Promise<StoreData> {
    const data = emptyStore() as unknown as Record<string, Row[]>;
    const rows = await this.sql`SELECT collection, body::text AS b FROM cr_records ORDER BY seq`.cursor(5000);
    for await (const batch of rows) for (const r of batch) data[r.collection as string]?.push(JSON.parse(r.b as string));
    return data as unknown as StoreData;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

async function insertRecord(tx: Tx, collection: CollectionName, record: Row): Promise<void> {
  const c = columnsOf(collection, record);
  const [row] = await tx`
    INSERT INTO cr_records (collection, id, website_id, lookup, body)
    VALUES (${collection}, ${c.id}, ${c.websiteId}, ${c.lookup}, ${JSON.stringify(record)}::text::json)
    RETURNING seq`;
  if (collection === 'revenue_records') await writeRevenue(tx, row!.seq as string, record);
}

async function patchRecord(tx: Tx, collection: CollectionName, id: string, patch: Row): Promise<void> {
  const [row] = await tx`SELECT seq, body::text AS b FROM cr_records WHERE collection = ${collection} AND id = ${id} FOR UPDATE`;
  if (!row) throw new Error(`No ${collection} record with id ${id}`);
  const record = { ...(JSON.parse(row.b as string) as Row), ...patch };
  const c = columnsOf(collection, record);
  await tx`UPDATE cr_records SET website_id = ${c.websiteId}, lookup = ${c.lookup}, body = ${JSON.stringify(record)}::text::json WHERE seq = ${row.seq as string}`;
  if (collection === 'revenue_records') await writeRevenue(tx, row.seq as string, record);
}

async function writeRevenue(tx: Tx, seq: string, record: Row): Promise<void> {
  const r = revenueColumnsOf(record);
  await tx`
    INSERT INTO cr_revenue (seq, entity_id, active, monthly_cents, client_name, currency, renewal_date, next_invoice_date)
    VALUES (${seq}, ${r.entityId}, ${r.active}, ${r.monthlyCents}, ${r.clientName}, ${r.currency}, ${r.renewalDate}, ${r.nextInvoiceDate})
    ON CONFLICT (seq) DO UPDATE SET entity_id = EXCLUDED.entity_id, active = EXCLUDED.active, monthly_cents = EXCLUDED.monthly_cents,
      client_name = EXCLUDED.client_name, currency = EXCLUDED.currency, renewal_date = EXCLUDED.renewal_date,
      next_invoice_date = EXCLUDED.next_invoice_date`;
}
