import type { Sql } from 'postgres';
import { NEWEST_SCHEMA } from './migrations.js';
import { describePgError } from './pg-errors.js';
import type { Readiness } from '../store/readiness.js';

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
 * was busy meanwhile), or when its schema is newer than this build knows (schema_newer: a newer
 * cr migrated it, and this one would misread its rows).
 */
export async function pgHealth(sql: Sql, at: string, busy: () => boolean): Promise<PgHealth> {
  const query = sql`SELECT coalesce(max(version), 0)::int AS v FROM cr_schema`;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), READINESS_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const answer = await Promise.race([query, late]);
    if (answer === 'late') {
      query.cancel();
      void query.catch(() => undefined);
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
    const schema = Number(answer[0]?.v ?? 0);
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
    return { readiness: { ready: false, cause: 'database_unreachable', reason: `the database at ${at}: ${describePgError(err, at)}` } };
  } finally {
    clearTimeout(timer);
  }
}
