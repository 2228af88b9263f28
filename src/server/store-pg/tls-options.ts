import { join } from 'node:path';
import { checkServerIdentity, type ConnectionOptions } from 'node:tls';
import { UsageError } from '../../errors.js';
import { escapeControls } from '../../render/escape.js';
import { nodeFs } from '../store/fs-layer.js';

/** libpq's sslmode values (PostgreSQL docs, "SSL Support"), weakest first. */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof SSL_MODES)[number];

/** What the client (postgres.js) takes as its `ssl` option. */
export type ClientSsl = false | 'prefer' | 'require' | ConnectionOptions;

/**
 * TLS to PostgreSQL as libpq sets it (docs/shared-sandbox.md "Connection settings"): `sslmode`
 * and `sslrootcert` from the URL, else PGSSLMODE and PGSSLROOTCERT, else libpq's default
 * `prefer`. The client's own reading of `sslmode` in the URL is bypassed (the caller removes
 * both parameters from the URL): it knows no `sslrootcert` file, and would send the
 * parameter to the server, which refuses it.
 *
 * - disable: no TLS. allow, prefer: TLS when the server offers it, its certificate unchecked.
 * - require: TLS, certificate unchecked; with a root certificate given, as verify-ca (libpq's rule).
 * - verify-ca: the certificate must chain to the root certificate; verify-full: and name the host.
 * - The root certificate: `sslrootcert` (a file, or `system` for the system's store, which
 *   implies verify-full), else ~/.postgresql/root.crt; a verify mode without either is refused,
 *   as libpq refuses it.
 */
export function clientSsl(given: { sslmode?: string; sslrootcert?: string; host?: string }, env: NodeJS.ProcessEnv): ClientSsl {
  const rawMode = given.sslmode ?? nonEmpty(env.PGSSLMODE);
  const rootcert = given.sslrootcert ?? nonEmpty(env.PGSSLROOTCERT);
  if (rawMode !== undefined && !(SSL_MODES as readonly string[]).includes(rawMode))
    throw new UsageError(
      `sslmode must be one of ${SSL_MODES.join(', ')}, got "${escapeControls(rawMode)}"`,
      'set it in the URL (?sslmode=verify-full) or PGSSLMODE',
    );
  let mode = (rawMode ?? (rootcert === 'system' ? 'verify-full' : 'prefer')) as SslMode;
  if (rootcert === 'system') {
    if (mode !== 'verify-full')
      throw new UsageError(
        `sslrootcert=system needs sslmode=verify-full, got sslmode=${mode}`,
        'as libpq: the system store is trusted only with the host name checked',
      );
    return { rejectUnauthorized: true, ...hostCheck(given.host) };
  }
  if (mode === 'require' && rootcert !== undefined) mode = 'verify-ca';
  switch (mode) {
    case 'disable':
      return false;
    case 'allow':
    case 'prefer':
      return 'prefer';
    case 'require':
      return 'require';
    case 'verify-ca':
      // The chain is checked against the root certificate; the name on it is not (libpq's verify-ca).
      return { ca: readRootCert(rootcert, env, mode), rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case 'verify-full':
      return { ca: readRootCert(rootcert, env, mode), rejectUnauthorized: true, ...hostCheck(given.host) };
  }
}

/**
 * The name check of verify-full, against the host the URL names. The client gives node:tls
 * no name for an address (127.0.0.1, ::1), and node:tls then checks the certificate against
 * no name of the URL's: without this, verify-full to an address accepted any name on it. A
 * URL of several hosts keeps node:tls's own check (the client names each host it tries).
 */
function hostCheck(host: string | undefined): Pick<ConnectionOptions, 'checkServerIdentity'> {
  if (!host || host.includes(',')) return {};
  const name = host.replace(/^\[(.*)\]$/, '$1');
  return { checkServerIdentity: (_given, cert) => checkServerIdentity(name, cert) };
}

const exists = (file: string) => {
  try {
    nodeFs.sync.stat(file);
    return true;
  } catch {
    return false;
  }
};

const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

function readRootCert(given: string | undefined, env: NodeJS.ProcessEnv, mode: SslMode): string {
  const file = given ?? (env.HOME ? join(env.HOME, '.postgresql', 'root.crt') : undefined);
  if (given === undefined && (file === undefined || !exists(file)))
    throw new UsageError(
      `sslmode=${mode} needs a root certificate: none given, and ${escapeControls(file ?? '~/.postgresql/root.crt')} does not exist`,
      'name the CA file with sslrootcert=FILE in the URL or PGSSLROOTCERT, or sslrootcert=system for the system store',
    );
  try {
    return nodeFs.sync.readFile(file!).toString('utf8');
  } catch (err) {
    throw new UsageError(`cannot read the root certificate ${escapeControls(file!)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
