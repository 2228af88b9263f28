import type { Sql, TransactionSql } from 'postgres';
import { pgErrorCode } from './pg-errors.js';

export type Tx = TransactionSql<Record<string, never>>;

/**
 * One transaction (`sql.begin`) that never makes the client write on a connection it has seen
 * close (docs/shared-sandbox.md "What the server does on PostgreSQL").
 *
 * Why: when a transaction's body fails, postgres (3.4.9) sends ROLLBACK on the transaction's
 * connection, whatever failed it. When the body failed because that connection closed
 * (PostgreSQL restarting, a terminated backend), the client has already let go of its socket,
 * and the ROLLBACK's write, deferred to a setImmediate, throws a TypeError that no caller can
 * catch: the whole process ended (porsager/postgres issues 1154 and 1208; the fix, pull
 * request 1209, is not released). begin() itself rejects, with CONNECTION_CLOSED, when its
 * connection closes. So a body that fails first waits until the close, if that is what failed
 * it, has been seen: if begin() has rejected, the body never settles, so postgres writes
 * nothing more on that connection, and the caller gets begin's rejection (503, nothing
 * acknowledged); if not, the connection is alive and the failure goes on as before (ROLLBACK,
 * then the body's error). Postgres writes only what the body issues and, once the body
 * settles, ROLLBACK or COMMIT, so nothing else reaches a closed connection.
 *
 * Bodies must issue each statement right after the previous one settled (no timers or other
 * I/O in between), as all of this store's do: a statement issued later could find the
 * connection closed. test/store-pg/client.test.ts and durability.test.ts terminate backends.
 */
export async function transaction<T>(sql: Sql, body: (tx: Tx) => Promise<T>, mode?: string): Promise<T> {
  let sawClose!: () => void;
  const closed = new Promise<true>((resolve) => {
    sawClose = () => resolve(true);
  });
  const guarded = async (tx: TransactionSql): Promise<T> => {
    try {
      return await body(tx as unknown as Tx);
    } catch (err) {
      if (await closedMeanwhile(closed, err)) return new Promise<T>(() => undefined);
      throw err;
    }
  };
  const done = (mode === undefined ? sql.begin(guarded) : sql.begin(mode, guarded)) as Promise<T>;
  // While the body has not settled, begin() rejects only because its connection closed.
  done.catch(sawClose);
  return done;
}

/** How long a body whose socket failed waits for its close (it comes in the same turn of the event loop). */
const LOST_WAIT_MS = 1_000;

/**
 * Whether begin() saw its connection close, waiting for that close when it is on its way. A
 * socket that failed (ECONNRESET…) is closed in the same turn of the event loop, after this
 * wait starts: a ROLLBACK sent in between would never be answered, and the client would keep it
 * queued on that connection. Any other failure (PostgreSQL refused a statement, a record
 * missing) waits one timer turn, which comes after this turn's close callbacks.
 */
async function closedMeanwhile(closed: Promise<true>, err: unknown): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), socketFailure(err) ? LOST_WAIT_MS : 0);
  });
  try {
    return await Promise.race([closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The client's own code for a connection gone, and Node's socket errors (they carry the system call). */
const socketFailure = (err: unknown): boolean => pgErrorCode(err) === 'CONNECTION_CLOSED' || typeof (err as { syscall?: unknown })?.syscall === 'string';
