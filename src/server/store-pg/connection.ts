import type { Options } from 'postgres';
import { clientSsl } from './tls-options.js';
import { passwordOption } from './password.js';
import { UsageError } from '../../errors.js';

/** What a store connection is opened with besides its URL. */
export interface ConnectionContext {
  /** The command's environment (src/cli/context.ts): PGPASSWORD, PGSSLMODE, PGSSLROOTCERT, HOME. */
  env: NodeJS.ProcessEnv;
  /** Where a warning about the password file goes. */
  notice: (line: string) => void;
}

/**
 * The client options of every connection cr opens (pg-store.ts, migrate-database.ts), besides
 * those of connectionSettings.
 *
 * `fetch_types: false`: by default postgres (3.4.9) asks each new connection for the database's
 * array types, with a query of its own whose promise nothing awaits. When that connection is
 * lost meanwhile (a PostgreSQL restart, a terminated backend), the query is rejected, nothing
 * handles the rejection, and Node ends the process (test/store-pg/durability.test.ts). What the
 * client learns from it is only how to send arrays: the two kinds cr sends (text[] and int4[]:
 * ids, lookups, counts) are written here instead, as PostgreSQL's array text. No statement of
 * cr reads an array column; one that did would get the array's text.
 */
export const CLIENT_OPTIONS = {
  fetch_types: false,
  // A connection closed while a write was queued on it opens again only after this (postgres
  // 3.4.9), and every request in flight at the fault waits for it (docs/shared-sandbox.md):
  // 10 s instead of the client's 30, still far above a connection's opening on a sound network.
  connect_timeout: 10,
  types: {
    textArray: { to: 1009, from: [] as number[], serialize: arrayText, parse: (raw: string) => raw },
    int4Array: { to: 1007, from: [] as number[], serialize: arrayText, parse: (raw: string) => raw },
  },
  onnotice: () => undefined,
};

/** An array as PostgreSQL's array text, `{"a","b\"c",NULL}`: each element quoted, with `\` and `"` escaped. */
export function arrayText(xs: readonly unknown[]): string {
  return `{${xs
    .map((x) => {
      if (x === null) return 'NULL';
      if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'bigint' && typeof x !== 'boolean')
        throw new TypeError(`cannot send ${typeof x} in an array`);
      return `"${String(x).replace(/[\\"]/g, '\\$&')}"`;
    })
    .join(',')}}`;
}

/**
 * The URL and client options of a store connection, with the settings PostgreSQL users know
 * from libpq read here (docs/shared-sandbox.md "Connection settings"): `sslmode` and
 * `sslrootcert` (URL, else PGSSLMODE/PGSSLROOTCERT; tls-options.ts), the password (URL, else
 * PGPASSWORD, else the password file; password.ts). The two TLS parameters and `password` are
 * taken out of the URL the client gets, so only this reads them. A URL `new URL` cannot read is returned as
 * it is: the client refuses it, and the store says so as a usage error (pg-store.ts).
 */
export function connectionSettings(url: string, ctx: ConnectionContext): { url: string; options: Pick<Options<never>, 'ssl' | 'pass'> } {
  refuseBracketedHost(url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, options: {} };
  }
  const sslmode = u.searchParams.get('sslmode') ?? undefined;
  const sslrootcert = u.searchParams.get('sslrootcert') ?? undefined;
  const queryPassword = passwordParameter(u);
  u.searchParams.delete('sslmode');
  u.searchParams.delete('sslrootcert');
  const ssl = clientSsl({ sslmode, sslrootcert, host: u.hostname || ctx.env.PGHOST }, ctx.env);
  const pass = queryPassword ?? passwordOption(u, ctx.env, ctx.notice);
  // Only these parameters go; the rest of the URL reaches the client as written (a password's
  // percent-encoding included).
  const stripped = sslmode === undefined && sslrootcert === undefined && queryPassword === undefined ? url : u.toString();
  return { url: stripped, options: pass === undefined ? { ssl } : { ssl, pass } };
}

/**
 * `?password=` is libpq's password as a parameter (docs/shared-sandbox.md "Connection
 * settings"). The client would send it to the server as a setting (42704, and the password in
 * the startup message): taken out of the URL here and given as the password, before PGPASSWORD
 * and the password file. A URL with a password in its user info too is refused: which one is
 * meant is not for cr to guess. `sslpassword` (a client key's passphrase) is not supported.
 */
function passwordParameter(u: URL): string | undefined {
  if (u.searchParams.has('sslpassword'))
    throw new UsageError(
      'the store URL has ?sslpassword=, which cr does not support (a client key with a passphrase)',
      'use a client key without a passphrase, or connect without one',
    );
  const given = u.searchParams.getAll('password');
  if (given.length === 0) return undefined;
  if (given.length > 1 || u.password !== '')
    throw new UsageError(
      'the store URL gives its password more than once (in the user info and as ?password=)',
      'keep one, or better none: give it by PGPASSWORD or ~/.pgpass',
    );
  u.searchParams.delete('password');
  return given[0];
}

/**
 * An IPv6 address in brackets (`[::1]`) the client cannot read (it answered ENOTFOUND): refused,
 * exit 2, naming what works (docs/shared-sandbox.md "Connection settings"). Several hosts are
 * refused before this, with the URL (src/config/store-url.ts).
 */
function refuseBracketedHost(url: string): void {
  const afterScheme = url.slice(url.indexOf('://') + 3);
  const authority = afterScheme.split(/[/?#]/, 1)[0] ?? '';
  if (authority.slice(authority.lastIndexOf('@') + 1).startsWith('['))
    throw new UsageError(
      'a store URL with an IPv6 address in brackets ([::1]) is not supported by the PostgreSQL client',
      'use a host name that resolves to it (localhost for ::1)',
    );
}
