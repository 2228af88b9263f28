import { createRequire } from 'node:module';

/** Turns the many shapes of a failed connection into one readable sentence. */
export function describeNetworkFailure(cause: unknown, timeoutMs: number): string {
  const err = cause as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.code ?? err?.cause?.code;
  const seconds = timeoutMs / 1000;
  // A proxy's failure is already a sentence naming the proxy (src/http/proxy-errors.ts).
  if (code === 'PROXY_ERROR') return String(err.message);
  if (err?.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `Timed out after ${seconds} s`;
  }
  if (code === 'ECONNREFUSED') return 'Connection refused: is the server running?';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'Connection reset by the server';
  if (isHttp2Only(cause)) return HTTP2_ONLY;
  const certificate = typeof code === 'string' ? certificateProblem(code) : undefined;
  if (certificate) return `${certificate} (${code}). ${certificateAdvice(code as string)}`;
  if (code !== undefined && HEADERS_OVERFLOW.has(code))
    return `The server's answer is not valid HTTP: its headers pass this Node's limit of ${headerLimit()} (Headers Overflow); NODE_OPTIONS=--max-http-header-size=BYTES raises it`;
  if (isMalformedAnswer(cause)) return `The server's answer is not valid HTTP: ${printable(String(err.message))}`;
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return `TLS error (${code})`;
  return `Network error: ${err?.cause?.message ?? err?.message ?? String(cause)}`;
}

/** The error code a failure gets in --json errors, when it is one of these kinds (docs/exit-codes.md). */
export function failureCode(cause: unknown): 'HTTP2_ONLY' | 'TLS_CERTIFICATE' | undefined {
  const code = (cause as { code?: string })?.code;
  if (isHttp2Only(cause)) return 'HTTP2_ONLY';
  if (typeof code === 'string' && certificateProblem(code)) return 'TLS_CERTIFICATE';
  return undefined;
}

/**
 * What to do about a certificate failure: trusting a CA fixes only a certificate no known CA
 * vouches for; an expired one, one for another name or a revoked one is the server's to fix.
 */
export function certificateAdvice(code: string, whose: Whose = 'server'): string {
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_REVOKED')
    return `Trusting another CA does not fix this: the ${whose}'s administrator must replace the certificate`;
  if (code === 'CERT_NOT_YET_VALID') return `Check this machine's date and time; otherwise the ${whose}'s administrator must replace the certificate`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH')
    return whose === 'proxy'
      ? 'Trusting another CA does not fix this: use the host name the certificate names in the proxy URL, or have the proxy given a certificate for this one'
      : 'Trusting another CA does not fix this: use the host name the certificate names in the base URL, or have the server given a certificate for this one';
  return TRUST_A_CA;
}

/** Whose certificate failed: the API server's, or an https:// proxy's (src/http/proxy-errors.ts). */
export type Whose = 'server' | 'proxy';

/**
 * An answer Node's HTTP parser refuses (llhttp's HPE_ codes: a control character in a header,
 * a broken status line or chunk, headers past the size limit): the same server sends it
 * again, so it is not retried. Headers past the limit come as Node names them or as the
 * dispatcher hands them on, in undici's name (src/http/dispatch-errors.ts).
 */
export function isMalformedAnswer(cause: unknown): boolean {
  const code = (cause as { code?: string })?.code;
  if (typeof code !== 'string') return false;
  return HEADERS_OVERFLOW.has(code) || (code.startsWith('HPE_') && !isHttp2Only(cause));
}

const HEADERS_OVERFLOW = new Set(['HPE_HEADER_OVERFLOW', 'UND_ERR_HEADERS_OVERFLOW']);

/** The response header limit of this Node (16 KiB, or --max-http-header-size), read only for the message. */
function headerLimit(): string {
  const bytes = (createRequire(import.meta.url)('node:http') as typeof import('node:http')).maxHeaderSize;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);

/** How to trust a CA, on every supported Node line (docs/install.md "Certificates"). */
export const TRUST_A_CA =
  "If your network answers with its own certificate authority (a company proxy or gateway), trust that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or the system's store with NODE_USE_SYSTEM_CA=1 (Node 22.19+, 24.6+) or NODE_OPTIONS=--use-system-ca (Node 22.15+); see `cr help environment`";

const HTTP2_ONLY =
  'The server speaks HTTP/2 only and cr speaks HTTP/1.1: use an address of the API that also answers HTTP/1.1 (most gateways and load balancers can)';

/**
 * What failed in the server's certificate, by OpenSSL's and Node's codes; undefined for a TLS
 * failure that is not the certificate's (a protocol mismatch).
 */
export function certificateProblem(code: string, whose: Whose = 'server'): string | undefined {
  const its = `The ${whose}'s TLS certificate`;
  if (/^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|CERT_UNTRUSTED|INVALID_CA)$/.test(code))
    return `${its} is not trusted: no certificate authority this Node knows vouches for it`;
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return `${its} is not trusted: it is self-signed`;
  if (code === 'CERT_HAS_EXPIRED') return `${its} has expired`;
  if (code === 'CERT_NOT_YET_VALID') return `${its} is not valid yet (or this machine's clock is wrong)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return `${its} is for another host name`;
  if (code === 'CERT_REVOKED') return `${its} has been revoked`;
  if (/CERT|SIGNATURE/.test(code) && !/^ERR_SSL_/.test(code)) return `${its} could not be verified`;
  return undefined;
}

/**
 * An HTTP/2-only server: over TLS it refuses the HTTP/1.1 that cr offers (ALPN, the "no
 * application protocol" alert); in clear text (or past ALPN) its first bytes are an HTTP/2
 * frame (SETTINGS or GOAWAY on stream 0) where an HTTP/1.1 status line should be.
 */
function isHttp2Only(cause: unknown): boolean {
  const err = cause as { code?: string; rawPacket?: unknown };
  if (err?.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') return true;
  if (err?.code !== 'HPE_INVALID_CONSTANT' || !Buffer.isBuffer(err.rawPacket)) return false;
  const b = err.rawPacket;
  return b.length >= 9 && (b[3] === 0x04 || b[3] === 0x07) && b.readUInt32BE(5) === 0;
}
