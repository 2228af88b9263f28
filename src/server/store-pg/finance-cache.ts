import type { Sql } from 'postgres';
import type { FinanceSummary } from '../../api/schemas/finance.js';
import { Serialized } from '../domain/compute/serialized.js';
import type { CollectionName, RecordOf } from '../store/schema.js';
import { pgFinanceSummary } from './finance-sql.js';
import { transaction } from './transaction.js';

/** Records of a collection by their lookup field, in store order, through any connection or transaction. */
export async function findRows<C extends CollectionName>(sql: Sql, collection: C, values: readonly string[]): Promise<RecordOf<C>[]> {
  if (values.length === 0) return [];
  const rows = await sql`SELECT body::text AS b FROM cr_records WHERE collection = ${collection} AND lookup = ANY(${values as string[]}) ORDER BY seq`;
  return rows.map((r) => JSON.parse(r.b as string) as RecordOf<C>);
}

/** Answers kept at once: a few owners × today (each answer of a large store is megabytes). */
const KEPT = 8;

/**
 * GET /finance/summary's answers, each kept with the finance version it was computed at
 * (migrations.ts, versions 2 and 3: a count and a token drawn at every bump) and given again
 * only while the database's version is the same:
 * every change to entities, costs or revenue, through any server, bumps it in its own
 * transaction, so a kept answer never outlives a commit made anywhere (docs/shared-sandbox.md).
 * A request pays one indexed read of one row, not the summary: with a million revenue records
 * one owner's answer took a second or more to compute and serialize (docs/benchmarks.md).
 */
export class FinanceAnswers {
  private readonly kept = new Map<string, { version: string; answer: Serialized<FinanceSummary> }>();

  constructor(private readonly sql: Sql) {}

  async get(ownerId: string, today: string): Promise<Serialized<FinanceSummary>> {
    const key = `${ownerId}\n${today}`;
    const kept = this.kept.get(key);
    if (kept) {
      const [row] = await this.sql`SELECT n || ' ' || token AS n FROM cr_finance_version`;
      if (row?.n === kept.version) return kept.answer;
    }
    // The version and the summary from one snapshot: the answer is exactly that version's.
    const { version, summary } = await transaction(
      this.sql,
      async (tx) => {
        const t = tx as unknown as Sql;
        const [row] = await t`SELECT n || ' ' || token AS n FROM cr_finance_version`;
        const summary = await pgFinanceSummary({ sql: t, findBy: (c, values) => findRows(t, c, values) }, ownerId, today);
        return { version: row!.n as string, summary };
      },
      'ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    const answer = new Serialized(summary);
    this.kept.delete(key);
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { version, answer });
    return answer;
  }
}
