import { escapeControls } from '../../render/escape.js';

/** Node's codes for a certificate that does not chain to a trusted root (node:tls, OpenSSL's verify errors). */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

/**
 * Why a store could not be opened, in words an operator can act on (docs/shared-sandbox.md
 * "Connection settings"): a certificate problem says which setting to look at; a refusal by
 * PostgreSQL gives its SQLSTATE and message (which never carry the password); anything else
 * its code. Never the URL: the caller names it, redacted.
 */
export function unreachableReason(cause: unknown): string {
  const e = cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? escapeControls(e.message) : String(cause);
  if (code && UNTRUSTED.has(code)) return `the server's certificate is not trusted: ${code}; sslrootcert (or PGSSLROOTCERT) must name the CA that signed it`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's certificate does not name this host: ${code}; connect by a name the certificate carries, or use sslmode=verify-ca`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the server's certificate is not valid now: ${code}`;
  if (code === '42501')
    return `${code} ${message}: this role may not change the schema; migrate as the role that owns it (cr local migrate), then start servers with --no-migrate`;
  if (code === '28P01')
    return `${code} ${message}: the password comes from the URL, else PGPASSWORD, else the password file (PGPASSFILE or ~/.pgpass, used only when mode 0600)`;
  if (code && /^[0-9A-Z]{5}$/.test(code)) return `${code} ${message}`;
  return code ?? message;
}
