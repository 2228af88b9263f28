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
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return `TLS error (${code})`;
  return `Network error: ${err?.cause?.message ?? err?.message ?? String(cause)}`;
}
