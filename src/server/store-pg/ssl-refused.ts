import { connect } from 'node:net';
import { pgErrorCode } from './pg-errors.js';

/**
 * PostgreSQL's SSLRequest (protocol "SSL Session Encryption"): length 8, code 80877103. The
 * server answers one byte, `S` (TLS follows) or `N` (no TLS here).
 */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
const ASK_MS = 5_000;
/** What the client (postgres.js) reports when the server answered `N` to a required TLS: it starts TLS anyway and is cut off. */
const CUT_OFF = new Set(['ECONNRESET', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'EPIPE']);

/** libpq's words for it, and a code pg-errors.ts describes. */
export class SslNotSupportedError extends Error {
  readonly code = 'SSL_NOT_SUPPORTED';
  constructor(cause: unknown) {
    super('server does not support SSL, but SSL was required', { cause });
  }
}

/** Asks the server whether it speaks TLS: `N` is no; anything else (S, an error, no answer) is not a no. */
export function serverRefusesTls(host: string, port: number, askMs = ASK_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (refuses: boolean) => {
      socket.destroy();
      resolve(refuses);
    };
    socket.setTimeout(askMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(SSL_REQUEST));
    socket.once('data', (b) => done(b[0] === 0x4e)); // 'N'
    socket.once('end', () => done(false));
  });
}

/**
 * A required TLS (sslmode=require, verify-ca, verify-full) refused by a server without it: the
 * client answers it as a reset connection, which `cr serve --wait-for-store` would retry for a
 * minute. libpq fails at once, "server does not support SSL, but SSL was required"; so does
 * this, having asked the server itself (docs/shared-sandbox.md "Connection settings"). Any
 * other failure is returned as it is.
 */
export async function explainTlsRefusal(err: unknown, o: { host: readonly string[]; port: readonly number[]; ssl: unknown }): Promise<unknown> {
  const required = o.ssl !== false && o.ssl !== 'prefer' && o.ssl !== undefined;
  const code = pgErrorCode(err);
  if (!required || code === undefined || !CUT_OFF.has(code)) return err;
  const [host, port] = [o.host[0], o.port[0]];
  if (host === undefined || port === undefined || host.startsWith('/')) return err;
  return (await serverRefusesTls(host, port)) ? new SslNotSupportedError(err) : err;
}
