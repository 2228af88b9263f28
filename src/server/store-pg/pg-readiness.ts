import type { Sql } from 'postgres';
import { NEWEST_SCHEMA } from './migrations.js';
import { describePgError, pgFailureCause } from './pg-errors.js';
import type { Readiness } from '../store/readiness.js';
import { transaction } from './transaction.js';

/** How long the readiness query may take: a check must answer while a balancer still waits (docs/shared-sandbox.md). */
export const READINESS_TIMEOUT_MS = 2_000;

/** What the database answered when asked whether it can serve: readiness, and its schema version when it answered. */
export interface PgHealth {
  readiness: Readiness;
  schema?: number;
}

/**
 * Asks the database one cheap question (readiness.ts, what `GET /readyz` answers): the
 * newest cr schema applied, answered within READINESS_TIMEOUT_MS. Not ready when it does not
 * answer (database_unreachable, or pool_exhausted when every connection of this server's pool
 * was busy meanwhile), when it refuses the server's login (database_auth_failed: a password
 * changed, a role disabled), or when its schema is newer than this build knows (schema_newer: a
 * newer cr migrated it, and this one would misread its rows).
 *
 * A question given up on is left to end by itself, its end handled whatever it is: the
 * database ends it at the same bound (schemaVersionWithin), and a connection that went silent
 * ends it when the connection is found gone. The client's own cancel (postgres 3.4.9,
 * `query.cancel()`) is not used: it opens a connection of its own to send the cancel, and
 * when the database host cannot be reached at that moment it rejects a promise that the client
 * keeps to itself (cancel() returns nothing), which nothing can handle: Node ended the
 * server (test/store-pg/store-health.test.ts, "cr serve while its database goes away").
 */
export async function pgHealth(sql: Sql, at: string, busy: () => boolean): Promise<PgHealth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), READINESS_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const asked = schemaVersionWithin(sql, READINESS_TIMEOUT_MS);
    // Its failure after the answer was given (late) is nobody's to report.
    asked.catch(() => undefined);
    const schema = await Promise.race([asked, late]);
    if (schema === 'late') {
      return busy()
        ? {
            readiness: {
              ready: false,
              cause: 'pool_exhausted',
              reason: `every connection of this server's pool to ${at} stayed busy for ${READINESS_TIMEOUT_MS} ms`,
            },
          }
        : { readiness: { ready: false, cause: 'database_unreachable', reason: `the database at ${at} did not answer within ${READINESS_TIMEOUT_MS} ms` } };
    }
    if (schema > NEWEST_SCHEMA) {
      return {
        schema,
        readiness: {
          ready: false,
          cause: 'schema_newer',
          reason: `the database's cr schema is version ${schema}, newer than this cr knows (${NEWEST_SCHEMA}): upgrade cr on this machine`,
        },
      };
    }
    return { schema, readiness: { ready: true } };
  } catch (err) {
    return { readiness: { ready: false, cause: pgFailureCause(err), reason: `the database at ${at}: ${describePgError(err, at)}` } };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The newest cr schema applied, in a read-only transaction whose statement the database itself
 * ends after `ms` (statement_timeout, for this transaction only): a question stuck behind a
 * lock or a busy server frees its connection at the bound, with no cancel request sent.
 */
function schemaVersionWithin(sql: Sql, ms: number): Promise<number> {
  return transaction(
    sql,
    async (tx) => {
      await tx.unsafe(`SET LOCAL statement_timeout = ${Math.round(ms)}`);
      const [row] = await tx`SELECT coalesce(max(version), 0)::int AS v FROM cr_schema`;
      return Number(row?.v ?? 0);
    },
    'READ ONLY',
  );
}
