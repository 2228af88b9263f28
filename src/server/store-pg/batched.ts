import type { Sql } from 'postgres';
import type { CollectionName, RecordOf } from '../store/schema.js';
import type { RateWindow } from '../store/api-store.js';
import { columnsOf } from './derive.js';

/*
 * The statements behind the PostgreSQL store's request path, each answering a whole batch of
 * requests in one round trip (coalesce.ts): every request's key, its rate-limit hit, and the
 * record a create writes. Batching changes how many statements run, never what any one
 * request sees or is told (test/store-pg/coalesce.test.ts).
 */

/**
 * How far ahead of a hit's time a window may start and still count. Hits are stamped with the
 * database's clock (DB_NOW) as their statement runs, so one stamped a few milliseconds before
 * the window's start can still arrive after it (two statements waiting on one row). A window
 * starting further ahead than this is one from a clock that stepped back, and starts again
 * (docs/api-decisions.md §9).
 */
export const CLOCK_SKEW_MS = 5_000;

/** The keys with these sha256 (one answer per item, in order; a sha256 asked twice is looked up once). */
export async function keysBySha256(sql: Sql, shas: string[]): Promise<(RecordOf<'api_keys'> | undefined)[]> {
  const rows = await sql`
    SELECT lookup, body::text AS b FROM cr_records WHERE collection = 'api_keys' AND lookup = ANY(${[...new Set(shas)]}::text[]) ORDER BY seq`;
  const found = new Map<string, RecordOf<'api_keys'>>();
  for (const r of rows) if (!found.has(r.lookup as string)) found.set(r.lookup as string, JSON.parse(r.b as string));
  return shas.map((s) => found.get(s));
}

/**
 * The time of the rate-limit windows on a shared database: the database's own clock (epoch ms),
 * never a server's. Servers' clocks differ; one lagging by more than CLOCK_SKEW_MS used to
 * start a key's window again on each of its hits, and one ahead ended others' windows early
 * (101 requests of 100 allowed). clock_timestamp(), not now(): the time the statement reads
 * it, not its transaction's start.
 */
export const DB_NOW = 'floor(extract(epoch from clock_timestamp()) * 1000)::bigint';

export interface RateHit {
  keyId: string;
  now: number;
  windowMs: number;
}

/**
 * Counts every hit of a batch with one upsert per key (one row per key, docs/api-decisions.md
 * §3): a key hit n times gets `count + n`, and its hits take the numbers count+1 … count+n in
 * the order they came, so the count stays exact whichever server the hits reached. Hits are
 * stamped with the database's clock (DB_NOW), whatever `now` the server passed, so servers
 * whose clocks differ share one window. Keys go in a fixed order, so two servers' batches never wait on each other's
 * rows in opposite orders (no deadlock).
 */
export async function rateHits(sql: Sql, hits: RateHit[]): Promise<RateWindow[]> {
  const out: RateWindow[] = new Array(hits.length);
  const byWindow = new Map<number, Map<string, number[]>>();
  hits.forEach((h, i) => {
    const keys = byWindow.get(h.windowMs) ?? byWindow.set(h.windowMs, new Map()).get(h.windowMs)!;
    (keys.get(h.keyId) ?? keys.set(h.keyId, []).get(h.keyId)!).push(i);
  });
  await Promise.all(
    [...byWindow].map(async ([windowMs, keys]) => {
      const ids = [...keys.keys()].sort();
      const counts = ids.map((k) => keys.get(k)!.length);
      const rows = await sql`
        INSERT INTO cr_rate_windows AS w (key_id, window_start, count)
        SELECT k, ${sql.unsafe(DB_NOW)}, n FROM unnest(${ids}::text[], ${counts}::int[]) WITH ORDINALITY AS h(k, n, o) ORDER BY o
        ON CONFLICT (key_id) DO UPDATE SET
          window_start = CASE WHEN w.window_start - ${CLOCK_SKEW_MS} <= EXCLUDED.window_start AND EXCLUDED.window_start < w.window_start + ${windowMs}
            THEN w.window_start ELSE EXCLUDED.window_start END,
          count = CASE WHEN w.window_start - ${CLOCK_SKEW_MS} <= EXCLUDED.window_start AND EXCLUDED.window_start < w.window_start + ${windowMs}
            THEN w.count + EXCLUDED.count ELSE EXCLUDED.count END
        RETURNING key_id, window_start::float8 AS start, count`;
      for (const r of rows) {
        const mine = keys.get(r.key_id as string)!;
        const start = Number(r.start);
        const first = Number(r.count) - mine.length + 1;
        mine.forEach((i, j) => {
          out[i] = { start, count: first + j };
        });
      }
    }),
  );
  return out;
}

export interface NewRecord {
  collection: CollectionName;
  record: Record<string, unknown>;
}

/**
 * Inserts the records of a batch of creates with one statement: one transaction, one commit
 * waited for on the disk (synchronous_commit stays on) for all of them, each answered only
 * after it. Rows take their seq in the order the creates came. When the statement fails with
 * more than one row, each is tried alone, so one row PostgreSQL refuses fails only its own
 * request; an error in the answer means that record was not acknowledged (503).
 */
export async function insertRecords(sql: Sql, rows: NewRecord[]): Promise<(unknown | undefined)[]> {
  try {
    await insertAll(sql, rows);
    return rows.map(() => undefined);
  } catch (err) {
    if (rows.length === 1) return [err];
    // One at a time, so the rows that go in keep the order their creates came in.
    const errors: unknown[] = [];
    for (const r of rows)
      errors.push(
        await insertAll(sql, [r]).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
    return errors;
  }
}

async function insertAll(sql: Sql, rows: NewRecord[]): Promise<void> {
  const cols = rows.map((r) => columnsOf(r.collection, r.record));
  await sql`
    INSERT INTO cr_records (collection, id, website_id, lookup, body)
    SELECT c, i, w, l, b::json
    FROM unnest(${rows.map((r) => r.collection)}::text[], ${cols.map((c) => c.id)}::text[], ${cols.map((c) => c.websiteId)}::text[],
      ${cols.map((c) => c.lookup)}::text[], ${rows.map((r) => JSON.stringify(r.record))}::text[]) WITH ORDINALITY AS r(c, i, w, l, b, o)
    ORDER BY o`;
}
