import type { Options } from 'postgres';
import { clientSsl } from './tls-options.js';
import { passwordOption } from './password.js';

/** What a store connection is opened with besides its URL. */
export interface ConnectionContext {
  /** The command's environment (src/cli/context.ts): PGPASSWORD, PGSSLMODE, PGSSLROOTCERT, HOME. */
  env: NodeJS.ProcessEnv;
  /** Where a warning about the password file goes. */
  notice: (line: string) => void;
}

/**
 * The URL and client options of a store connection, with the settings PostgreSQL users know
 * from libpq read here (docs/shared-sandbox.md "Connection settings"): `sslmode` and
 * `sslrootcert` (URL, else PGSSLMODE/PGSSLROOTCERT; tls-options.ts), the password (URL, else
 * PGPASSWORD, else the password file; password.ts). The two TLS parameters are taken out of
 * the URL the client gets, so only this reads them. A URL `new URL` cannot read is returned as
 * it is: the client refuses it, and the store says so as a usage error (pg-store.ts).
 */
export function connectionSettings(url: string, ctx: ConnectionContext): { url: string; options: Pick<Options<never>, 'ssl' | 'pass'> } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, options: {} };
  }
  const sslmode = u.searchParams.get('sslmode') ?? undefined;
  const sslrootcert = u.searchParams.get('sslrootcert') ?? undefined;
  u.searchParams.delete('sslmode');
  u.searchParams.delete('sslrootcert');
  const ssl = clientSsl({ sslmode, sslrootcert, host: u.hostname || ctx.env.PGHOST }, ctx.env);
  const pass = passwordOption(u, ctx.env, ctx.notice);
  // Only the two parameters go; the rest of the URL reaches the client as written (a password's
  // percent-encoding included).
  const stripped = sslmode === undefined && sslrootcert === undefined ? url : u.toString();
  return { url: stripped, options: pass === undefined ? { ssl } : { ssl, pass } };
}
