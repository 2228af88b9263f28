import type { Sql } from 'postgres';
import { emptyStore } from '../store/collections.js';
import type { CollectionName, RecordOf, StoreData } from '../store/schema.js';
import type { Mutation } from '../store/batch.js';
import type { ApiStore, FinanceRows, RateWindow, WebsiteIds } from '../store/api-store.js';
import type { FinanceSummary } from '../../api/schemas/finance.js';
import { StoreUnavailableError } from '../store/errors.js';
import { UsageError } from '../../errors.js';
import { columnsOf, revenueColumnsOf } from './derive.js';
import { checkSchema, migrate, SchemaTooNewError, SchemaTooOldError } from './migrate.js';
import { redactUrl } from '../../config/store-url.js';
import { CLIENT_OPTIONS, connectionSettings } from './connection.js';
import { explainTlsRefusal } from './ssl-refused.js';
import { agreedRateLimit } from './settings.js';
import { FinanceAnswers, findRows } from './finance-cache.js';
import type { Serialized } from '../domain/compute/serialized.js';
import { Coalescer } from './coalesce.js';
import { CLOCK_SKEW_MS, DB_NOW, insertRecords, keysBySha256, rateHits } from './batched.js';
import type { NewRecord, RateHit } from './batched.js';
import type { PoolStats } from '../store/metrics-hooks.js';
import type { Readiness } from '../store/readiness.js';
import { pgHealth } from './pg-readiness.js';
import { describePgError, hostPortOf, pgErrorTransient, pgFailureCause } from './pg-errors.js';
import { transaction, type Tx } from './transaction.js';

/** How often a running server asks the database its schema version (a newer cr may migrate it meanwhile). */
const SCHEMA_WATCH_MS = 15_000;

type Row = Record<string, unknown>;

export interface PgStoreOptions {
  /** Connections in this server's pool (default 20; `cr serve --pool`). */
  max?: number;
  /**
   * The command's environment (src/cli/context.ts): the libpq variables PGPASSWORD, PGSSLMODE,
   * PGSSLROOTCERT, PGPASSFILE (connection.ts). Default: the process's.
   */
  env?: NodeJS.ProcessEnv;
  /** Where a warning about the password file goes (default standard error). */
  notice?: (line: string) => void;
  /**
   * 'apply' (default): migrate the schema at open. 'check' (`cr serve --no-migrate`): change
   * nothing, and refuse a schema older or newer than this cr's (docs/shared-sandbox.md "Roles").
   * 'check-local': the same for a local command that only reads or edits records
   * (docs/shared-sandbox.md "Upgrading"), told so in the refusal.
   */
  schema?: 'apply' | 'check' | 'check-local';
}

/**
 * The PostgreSQL store (docs/shared-sandbox.md): the same collections as the JSON file store,
 * one row per record, every write one transaction. Nothing is cached in this process: any
 * number of servers on one database read each other's commits at once.
 */
export class PgStore implements ApiStore {
  /** Which kind of store this is, among those src/server/store/open-store.ts opens. */
  readonly kind = 'postgres';
  /** Other servers may commit at any time: nothing computed from the store may be kept. */
  readonly version = undefined;
  readonly location: string;
  // The request path's statements, each shared by the requests that arrive together
  // (coalesce.ts, batched.ts): the key, the rate-limit hit, a create's insert.
  private readonly keys: Coalescer<string, RecordOf<'api_keys'> | undefined>;
  private readonly hits: Coalescer<RateHit, RateWindow>;
  private readonly inserts: Coalescer<NewRecord, unknown>;
  private readonly finance: FinanceAnswers;
  /** host:port of the database, for messages (never the user or password). */
  private readonly at: string;
  /** Requests waiting on the database now: the pool is likely exhausted when they reach its size. */
  private inflight = 0;
  /** Set once the database was found migrated past this build: every request is refused (503 schema_newer). */
  private tooNew: (Readiness & { ready: false }) | undefined;
  private readonly schemaWatch: NodeJS.Timeout;

  private constructor(
    url: string,
    readonly sql: Sql,
    /**
     * The rate-limit windows' own connections, committing without waiting for the disk
     * (synchronous_commit off): every request of a key updates that key's one row, and
     * waiting for an fsync while holding its lock made a key's requests one at a time
     * (~200/s for 50 writers here). Counts stay exact across servers (the row lock orders
     * them); a PostgreSQL crash may forget the last moment of counts, as the JSON store's
     * sidecar forgets at most its last second (docs/api-decisions.md §3). Writes of records
     * still wait for the disk.
     */
    private readonly rateSql: Sql,
    private readonly poolSize: number,
  ) {
    this.location = redactUrl(url);
    this.at = hostPortOf(url);
    // readiness() answers every failure as not ready; a throw would still never end the process.
    this.schemaWatch = setInterval(() => void this.readiness().catch(() => undefined), SCHEMA_WATCH_MS);
    this.schemaWatch.unref();
    this.keys = new Coalescer((shas) => keysBySha256(sql, shas), 4);
    // Two batches per server at a time: every hit of one key updates one row, so more would
    // only queue on its lock.
    this.hits = new Coalescer((hits) => rateHits(rateSql, hits), 2);
    // Inserts wait for the disk: several batches in flight let PostgreSQL flush their commits together.
    this.inserts = new Coalescer((rows) => insertRecords(sql, rows), 8);
    this.finance = new FinanceAnswers(sql);
  }

  /**
   * Connects (loading the client only now: no other command pays for it), then migrates the
   * schema or, with `schema: 'check'`, only checks it.
   */
  static async open(url: string, opts: PgStoreOptions = {}): Promise<PgStore> {
    const location = redactUrl(url);
    const { sql, rateSql } = await PgStore.connect(url, opts);
    try {
      if (opts.schema === 'check' || opts.schema === 'check-local') await checkSchema(sql, location, opts.schema === 'check' ? 'serve' : 'local');
      else await migrate(sql);
    } catch (err) {
      await Promise.all([sql.end({ timeout: 1 }), rateSql.end({ timeout: 1 })]);
      if (err instanceof SchemaTooNewError || err instanceof SchemaTooOldError) throw err;
      throw new DatabaseUnreachableError(location, hostPortOf(url), await explainTlsRefusal(err, sql.options));
    }
    return new PgStore(url, sql, rateSql, opts.max ?? 20);
  }

  /** The two pools (records, rate-limit counts), with the connection settings of connection.ts. */
  private static async connect(url: string, opts: PgStoreOptions): Promise<{ sql: Sql; rateSql: Sql }> {
    const { default: postgres } = await import('postgres');
    const max = opts.max ?? 20;
    const notice = opts.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
    const settings = connectionSettings(url, { env: opts.env ?? process.env, notice });
    try {
      const sql = postgres(settings.url, { ...CLIENT_OPTIONS, ...settings.options, max, connection: { application_name: 'cr serve' } });
      const rateSql = postgres(settings.url, {
        ...CLIENT_OPTIONS,
        ...settings.options,
        max: Math.max(2, Math.ceil(max / 2)),
        connection: { application_name: 'cr serve (rate limit)', synchronous_commit: 'off' },
      });
      return { sql, rateSql };
    } catch (err) {
      // The client parses the URL before it connects (a bad port, a bare # or / or % in the
      // password): a value the operator gave, named without its password, never an internal error.
      throw new UsageError(
        `the store ${redactUrl(url)} is not a PostgreSQL URL the client can read (${(err as Error).message})`,
        'percent-encode @ : / ? # % and spaces in the user name and password (# is %23, / is %2F, % is %25)',
      );
    }
  }

  /** The hourly rate limit every server of this database counts with (settings.ts). */
  agreedRateLimit(given: number | undefined, fallback: number): Promise<number> {
    return agreedRateLimit(this.sql, given, fallback, this.location);
  }

  private async list<C extends CollectionName>(collection: C, opts: { websiteIds?: Iterable<string> } = {}): Promise<RecordOf<C>[]> {
    const rows = await this.guarded(() =>
      opts.websiteIds
        ? this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND website_id = ANY(${[...opts.websiteIds]}) ORDER BY seq`
        : this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} ORDER BY seq`,
    );
    return rows.map((r) => JSON.parse(r.b as string) as RecordOf<C>);
  }

  private async get<C extends CollectionName>(collection: C, id: string): Promise<RecordOf<C> | undefined> {
    const [row] = await this.guarded(() => this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND id = ${id}`);
    return row ? (JSON.parse(row.b as string) as RecordOf<C>) : undefined;
  }

  /** Records of a collection by their lookup field (derive.ts: a key's sha256, an entity's owner…). */
  findBy<C extends CollectionName>(collection: C, values: readonly string[]): Promise<RecordOf<C>[]> {
    return this.guarded(() => findRows(this.sql, collection, values));
  }

  /** Applies one write's mutations in one transaction: all of them or none, durable when it resolves. */
  async commit(mutations: Mutation[]): Promise<void> {
    if (this.tooNew) throw new StoreUnavailableError({ why: 'schema_newer', cause: new Error(this.tooNew.reason) });
    try {
      const [only] = mutations;
      // One insert (what creates through the API are) is one statement, atomic by itself: no
      // BEGIN/COMMIT round trips around it (5x the inserts a second, bench/pg.mjs).
      if (mutations.length === 1 && only!.op === 'insert' && only!.collection !== 'revenue_records') {
        const failed = await this.inserts.submit({ collection: only.collection, record: only.record });
        if (failed) throw failed;
        return;
      }
      await transaction(this.sql, async (tx) => {
        for (const m of mutations) {
          if (m.op === 'insert') await insertRecord(tx, m.collection, m.record);
          // Revenue rows go with their records (ON DELETE CASCADE), and the running totals and
          // the finance version with them (migrations.ts triggers).
          else if (m.op === 'remove') await tx`DELETE FROM cr_records WHERE collection = ${m.collection} AND id = ANY(${m.ids})`;
          // website_id holds the record's scope as batch.ts's scopeOf reads it (derive.ts).
          else if (m.op === 'clear' && m.websiteId !== undefined)
            await tx`DELETE FROM cr_records WHERE collection = ${m.collection} AND website_id = ${m.websiteId}`;
          else if (m.op === 'clear') await tx`DELETE FROM cr_records WHERE collection = ${m.collection}`;
          else await patchRecord(tx, m.collection, m.id, m.patch);
        }
      });
    } catch (err) {
      if (err instanceof MissingRecordError) throw err;
      // The database did not confirm the commit (gone, restarting, refusing): nothing is
      // acknowledged, and the caller answers 503 (docs/api-decisions.md §7).
      throw new StoreUnavailableError({ why: pgFailureCause(err), cause: err });
    }
  }

  /**
   * Counts one request of the key in its window (docs/api-decisions.md §3) with one upsert, so
   * any number of servers sharing the database count one key exactly. Time is the database's
   * clock, not `now` (batched.ts DB_NOW): servers whose clocks differ share one window. A window
   * that ended, or starts in the future, starts again at the database's now.
   */
  rateHit(keyId: string, now: number, windowMs: number): Promise<RateWindow> {
    return this.guarded(() => this.hits.submit({ keyId, now, windowMs }));
  }

  /** As rateHit, on the database's clock (`now` is the caller's, unused: batched.ts DB_NOW). */
  async ratePeek(keyId: string, _callerNow: number, windowMs: number): Promise<RateWindow | undefined> {
    const [row] = await this.guarded(
      () =>
        this.rateSql`SELECT window_start::float8 AS start, count, ${this.rateSql.unsafe(DB_NOW)}::float8 AS now FROM cr_rate_windows WHERE key_id = ${keyId}`,
    );
    if (!row) return undefined;
    const now = Number(row.now);
    const start = Number(row.start);
    return start - CLOCK_SKEW_MS <= now && now < start + windowMs ? { start, count: Number(row.count) } : undefined;
  }

  async rateForget(keyIds: readonly string[] | 'all'): Promise<void> {
    await this.guarded(() =>
      keyIds === 'all' ? this.rateSql`DELETE FROM cr_rate_windows` : this.rateSql`DELETE FROM cr_rate_windows WHERE key_id = ANY(${[...keyIds]})`,
    );
  }

  // The reads of the store interface (api-store.ts), each one indexed query.
  keyBySha256(sha256: string) {
    return this.guarded(() => this.keys.submit(sha256));
  }
  apiKey(id: string) {
    return this.get('api_keys', id);
  }
  apiKeys() {
    return this.list('api_keys');
  }
  user(id: string) {
    return this.get('users', id);
  }
  async firstUser() {
    return this.first('users');
  }
  agency(id: string) {
    return this.get('agencies', id);
  }
  website(id: string) {
    return this.get('websites', id);
  }
  async firstWebsite() {
    return this.first('websites');
  }
  async agencyWebsites(agencyId: string) {
    return this.findBy('websites', [agencyId]);
  }
  async financeRows(ownerId: string): Promise<FinanceRows> {
    const entities = await this.findBy('business_entities', [ownerId]);
    const ids = entities.map((e) => e.id);
    const [records, costs] = await Promise.all([this.findBy('revenue_records', ids), this.findBy('cost_items', ids)]);
    return { entities, records, costs };
  }
  /** The summary computed in the database (finance-sql.ts), kept while the finance version holds (finance-cache.ts). */
  financeSummary(ownerId: string, today: string): Promise<Serialized<FinanceSummary>> {
    return this.guarded(() => this.finance.get(ownerId, today));
  }
  adCampaign(id: string) {
    return this.get('ad_campaigns', id);
  }
  socialPost(id: string) {
    return this.get('social_posts', id);
  }
  learnings(websiteIds: WebsiteIds) {
    return this.list('learnings', { websiteIds });
  }
  nurtureSequences(websiteIds: WebsiteIds) {
    return this.list('nurture_sequences', { websiteIds });
  }
  visibilityScans(websiteId: string) {
    return this.list('visibility_scans', { websiteIds: [websiteId] });
  }
  brandSubjects(websiteIds: WebsiteIds) {
    return this.list('brand_subjects', { websiteIds });
  }
  crmAgents(websiteIds: WebsiteIds) {
    return this.list('crm_agents', { websiteIds });
  }

  private async first<C extends CollectionName>(collection: C): Promise<RecordOf<C> | undefined> {
    const [row] = await this.guarded(() => this.sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} ORDER BY seq LIMIT 1`);
    return row ? (JSON.parse(row.b as string) as RecordOf<C>) : undefined;
  }

  /** Every record, in store order (api-store.ts): what seed checks against, export prints and copy carries. */
  async snapshot(): Promise<StoreData> {
    const data = emptyStore() as unknown as Record<string, Row[]>;
    const rows = await this.sql`SELECT collection, body::text AS b FROM cr_records ORDER BY seq`.cursor(5000);
    for await (const batch of rows) for (const r of batch) data[r.collection as string]?.push(JSON.parse(r.b as string));
    return data as unknown as StoreData;
  }

  /** The database answers, with a schema this build knows (pg-readiness.ts); a newer one refuses every request from then on. */
  async readiness(): Promise<Readiness> {
    const { readiness } = await pgHealth(this.sql, this.at, () => this.inflight >= this.poolSize);
    if (readiness.ready) this.tooNew = undefined;
    else if (readiness.cause === 'schema_newer') this.tooNew = readiness;
    return readiness;
  }

  /**
   * The pool as `GET /metrics` shows it (metrics-hooks.ts). postgres.js has no public view of
   * its connections' states, so this counts the store's own statements in flight against the
   * pool's size: those past the size wait for a connection.
   */
  poolStats(): PoolStats {
    const inUse = Math.min(this.inflight, this.poolSize);
    return { inUse, idle: this.poolSize - inUse, waiting: Math.max(0, this.inflight - this.poolSize) };
  }

  /**
   * A read the database did not answer (gone, restarting, refusing connections or the server's
   * login): 503 STORE_UNAVAILABLE with its cause, as for writes, rather than an internal error
   * (docs/shared-sandbox.md).
   */
  private async guarded<T>(read: () => Promise<T>): Promise<T> {
    if (this.tooNew) throw new StoreUnavailableError({ why: 'schema_newer', cause: new Error(this.tooNew.reason) });
    this.inflight++;
    try {
      return await read();
    } catch (err) {
      throw new StoreUnavailableError({ why: pgFailureCause(err), cause: err });
    } finally {
      this.inflight--;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.schemaWatch);
    await Promise.all([this.sql.end({ timeout: 5 }), this.rateSql.end({ timeout: 5 })]);
  }
}

/** The database could not be reached or refused the server (wrong host, port, user, database): said in words (pg-errors.ts). */
export class DatabaseUnreachableError extends Error {
  readonly code = 'STORE_UNREACHABLE';
  /** A connection-level failure (nothing listening yet, starting up): `cr serve --wait-for-store` tries again. */
  readonly transient: boolean;
  constructor(location: string, at: string, cause: unknown) {
    super(`cannot open the store at ${location}: ${describePgError(cause, at)}`, { cause });
    this.transient = pgErrorTransient(cause);
  }
}

/** A patch of a record that does not exist: nothing of the commit applied. */
class MissingRecordError extends Error {
  constructor(collection: string, id: string) {
    super(`No ${collection} record with id ${id}`);
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
  if (!row) throw new MissingRecordError(collection, id);
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
