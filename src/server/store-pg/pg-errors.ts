import { logSafe } from '../log-text.js';
import type { UnavailableCause } from '../store/readiness.js';

/**
 * PostgreSQL's refusals in words (docs/shared-sandbox.md, "When the database is not there" and
 * "Connection settings"): one line an operator can act on, `<what> (<code>); <hint>`, from the
 * SQLSTATE, the socket error or the TLS check, instead of a bare code; a certificate problem
 * names the setting to look at. Never the password: only fixed texts, the URL's host and port
 * (given by the caller, redacted), and, for an unknown SQLSTATE, the server's own message,
 * escaped (log-text.ts) since it comes from outside. The one module for these words: opening a
 * store, `cr local migrate` and the readiness check all say them through describePgError.
 */
interface Described {
  what: string;
  hint?: string;
  /** A failure of the connection itself (nothing listens, the server is starting or stopping): worth retrying. */
  transient: boolean;
}

const SQLSTATES: Record<string, Described> = {
  '28P01': {
    what: 'password authentication failed',
    hint: 'check the user name and password in the URL (percent-encode @ : / ? # %); the password comes from the URL, else PGPASSWORD, else the password file (PGPASSFILE or ~/.pgpass, used only when mode 0600)',
    transient: false,
  },
  '28000': {
    what: 'the server refused this user from this host (invalid authorization)',
    hint: 'check the user name, and that pg_hba.conf lets it in from here',
    transient: false,
  },
  '3D000': { what: 'the database does not exist', hint: 'create it (createdb NAME) or fix its name at the end of the URL', transient: false },
  '42501': {
    what: 'permission denied',
    hint: 'the URL\'s role lacks a privilege on cr\'s tables, or may not change the schema: migrate as the role that owns it (cr local migrate), then start servers with --no-migrate; or grant this role access (docs/shared-sandbox.md "Roles")',
    transient: false,
  },
  '57P01': { what: 'the database server is shutting down (admin shutdown)', hint: 'waiting for it to come back', transient: true },
  '57P02': { what: 'the database server shut down after a crash', hint: 'waiting for it to come back', transient: true },
  '57P03': { what: 'the database server is starting up and does not accept connections yet', hint: 'waiting for it', transient: true },
  '53300': {
    what: 'too many connections to the database server',
    hint: "raise PostgreSQL's max_connections, or run fewer servers (each keeps up to 30 connections)",
    transient: true,
  },
};

/** Node's codes for a certificate that does not chain to a trusted root (node:tls, OpenSSL's verify errors). */
const UNTRUSTED = [
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
];

/** The TLS check refused the server (connection.ts, tls-options.ts): a setting to fix, not worth waiting for. */
const CERTIFICATE: Record<string, Described> = {
  ...Object.fromEntries(
    UNTRUSTED.map((code) => [
      code,
      { what: "the server's certificate is not trusted", hint: 'sslrootcert (or PGSSLROOTCERT) must name the CA that signed it', transient: false },
    ]),
  ),
  ERR_TLS_CERT_ALTNAME_INVALID: {
    what: "the server's certificate does not name this host",
    hint: 'connect by a name the certificate carries, or use sslmode=verify-ca',
    transient: false,
  },
  // The server answered `N` to the SSLRequest (ssl-refused.ts): libpq's words.
  SSL_NOT_SUPPORTED: {
    what: 'server does not support SSL, but SSL was required',
    hint: 'turn ssl on in the server (postgresql.conf), or connect with sslmode=prefer or disable where the network is trusted',
    transient: false,
  },
  CERT_HAS_EXPIRED: { what: "the server's certificate is not valid now (expired)", transient: false },
  CERT_NOT_YET_VALID: { what: "the server's certificate is not valid yet", transient: false },
};

const SOCKET: Record<string, (at: string) => Described> = {
  ECONNREFUSED: (at) => ({ what: `nothing listens at ${at}`, hint: 'is PostgreSQL running there, on this port?', transient: true }),
  ENOTFOUND: (at) => ({ what: `the host of ${at} is not found`, hint: 'check the host name in the URL (or wait for its DNS name to exist)', transient: true }),
  EAI_AGAIN: (at) => ({ what: `the host of ${at} cannot be resolved now`, hint: 'the DNS server did not answer', transient: true }),
  ETIMEDOUT: (at) => ({ what: `no answer from ${at}`, hint: 'check the host, the port and any firewall between', transient: true }),
  CONNECT_TIMEOUT: (at) => ({ what: `no answer from ${at}`, hint: 'check the host, the port and any firewall between', transient: true }),
  EHOSTUNREACH: (at) => ({ what: `${at} is unreachable`, hint: 'check the network route to the database host', transient: true }),
  ENETUNREACH: (at) => ({ what: `${at} is unreachable`, hint: 'check the network route to the database host', transient: true }),
  ECONNRESET: (at) => ({ what: `the connection to ${at} was reset`, transient: true }),
  CONNECTION_CLOSED: (at) => ({ what: `the database at ${at} closed the connection`, transient: true }),
  CONNECTION_ENDED: (at) => ({ what: `the connection to ${at} was ended`, transient: true }),
  CONNECTION_DESTROYED: (at) => ({ what: `the connection to ${at} was destroyed`, transient: true }),
};

/** The code an error carries: a SQLSTATE, a socket errno, a client code; the first of several (a host with two addresses). */
export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && code !== '') return code;
  const inner = (err as { errors?: unknown[] })?.errors;
  return Array.isArray(inner) && inner.length > 0 ? pgErrorCode(inner[0]) : undefined;
}

function describe(err: unknown, at: string): Described & { code?: string } {
  const code = pgErrorCode(err);
  if (code && SQLSTATES[code]) return { ...SQLSTATES[code], code };
  if (code && CERTIFICATE[code]) return { ...CERTIFICATE[code], code };
  if (code && SOCKET[code]) return { ...SOCKET[code](at), code };
  // Class 08: connection exceptions; the rest is the server's own word, escaped.
  const message = logSafe((err as Error)?.message ?? String(err), 300);
  return { what: message, code, transient: code?.startsWith('08') === true };
}

/**
 * One line for a PostgreSQL failure: `password authentication failed (28P01); check the user
 * name and password in the URL …`. `at` names where (host:port, never the password).
 */
export function describePgError(err: unknown, at: string): string {
  const d = describe(err, at);
  return `${d.what}${d.code ? ` (${logSafe(d.code, 32)})` : ''}${d.hint ? `; ${d.hint}` : ''}`;
}

/**
 * Whether trying again may work: the connection failed (nothing listening yet, the server
 * starting or shutting down, too many connections). A wrong password, user, database or
 * privilege is not: trying again only hides it (`cr serve --wait-for-store`).
 */
export const pgErrorTransient = (err: unknown): boolean => describe(err, '').transient;

/**
 * The SQLSTATEs of a login the database refuses (class 28, invalid authorization): a wrong
 * password (28P01), a role that may not log in or that pg_hba.conf turns away (28000).
 */
const LOGIN_REFUSED = new Set(['28P01', '28000']);

/**
 * The cause a failure met while serving is answered with (readiness.ts: /readyz, the API's 503,
 * the log, the metrics): `database_auth_failed` when the database refused the server's login (a
 * password changed or a role disabled while it served: an operator must act, waiting will not
 * do), else `database_unreachable`. The reason stays describePgError's words.
 */
export const pgFailureCause = (err: unknown): Extract<UnavailableCause, 'database_auth_failed' | 'database_unreachable'> =>
  LOGIN_REFUSED.has(pgErrorCode(err) ?? '') ? 'database_auth_failed' : 'database_unreachable';

/** host:port of a PostgreSQL URL, for messages; never its user or password. */
export function hostPortOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`;
  } catch {
    return '(unparseable URL)';
  }
}
