import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { redactKeys } from '../config/redact.js';
import { describeNetworkFailure, failureCode } from '../http/network-errors.js';
import { localResetOf, retryAfterMsOf } from '../http/rate-budget.js';

/**
 * Why a message could not be delivered to `<base>/mcp`, in a form the bridge can act on
 * (retry, re-initialize, or answer the agent with a JSON-RPC error). The SDK's own
 * StreamableHTTPError keeps only the status and body text; the bridge also needs the
 * API's error envelope and the rate-limit headers (docs/api-decisions.md, Limits), so the fetch
 * the transport uses raises these instead (see failingFetch).
 */

/** The server answered a POST with an HTTP error status. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    /** The envelope's `error` (or a short form of the body), keys redacted. */
    readonly apiMessage: string,
    readonly apiCode: string | undefined,
    /** Seconds to wait, from Retry-After (or X-RateLimit-Reset), when the server said. */
    readonly retryAfterSeconds: number | undefined,
    /** When the window resets (X-RateLimit-Reset, epoch seconds), as ISO text. */
    readonly retryAt: string | undefined,
  ) {
    super(`HTTP ${status}: ${apiMessage}`);
    this.name = 'HttpFailure';
  }
}

/** The request never got an answer: refused, reset, dropped mid-way, DNS, TLS. */
export class NetworkFailure extends Error {
  constructor(
    message: string,
    /** True when the connection was never made, so the server cannot have seen the request. */
    readonly beforeSend: boolean,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'NetworkFailure';
  }
}

/** Error codes of a connection that was never established (nothing reached the server). */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'EADDRNOTAVAIL']);

function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function envelopeOf(text: string): { error?: string; code?: string } {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object') {
      const b = body as { error?: unknown; code?: unknown };
      // A JSON-RPC error body ({"jsonrpc","error":{"message"}}) from a session-aware server.
      const rpc = b.error && typeof b.error === 'object' ? (b.error as { message?: unknown }).message : undefined;
      const error = typeof b.error === 'string' ? b.error : typeof rpc === 'string' ? rpc : undefined;
      return { error, code: typeof b.code === 'string' ? b.code : undefined };
    }
  } catch {
    /* not JSON: the text itself */
  }
  return {};
}

/**
 * When to retry, from Retry-After and X-RateLimit-Reset read as the CLI reads them
 * (src/http/rate-budget.ts): a value more than a week ahead is ignored, as if not sent.
 */
function retryHint(headers: Headers, nowMs: number): { seconds?: number; at?: string } {
  const h = Object.fromEntries(headers);
  // On the local clock: the server's may be years off (a Date header at the last date JavaScript holds).
  const reset = localResetOf(h, nowMs);
  const at = reset !== undefined && reset > 0 ? new Date(reset).toISOString() : undefined;
  const wait = retryAfterMsOf(h, nowMs);
  // An HTTP-date Retry-After is itself a time to name; delay-seconds is not.
  const dated = wait !== undefined && !/^\d+$/.test(h['retry-after']!.trim());
  if (wait !== undefined) return { seconds: Math.ceil(wait / 1000), at: at ?? (dated ? new Date(nowMs + wait).toISOString() : undefined) };
  if (reset !== undefined) return { seconds: Math.max(0, Math.ceil((reset - nowMs) / 1000)), at };
  return {};
}

/** Turns a failed HTTP answer into an HttpFailure (body read, keys redacted). */
export async function httpFailureOf(response: Response, nowMs = Date.now()): Promise<HttpFailure> {
  const text = await response.text().catch(() => '');
  const env = envelopeOf(text);
  const fallback = text.trim() ? text.trim().slice(0, 200) : response.statusText || `HTTP ${response.status}`;
  const hint = retryHint(response.headers, nowMs);
  return new HttpFailure(response.status, redactKeys(env.error ?? fallback), env.code, hint.seconds, hint.at);
}

/**
 * The fetch handed to the SDK's StreamableHTTPClientTransport: a POST answered with an
 * error status, or one that fails on the wire, rejects with HttpFailure / NetworkFailure,
 * which the transport's send() passes on unchanged. GET and DELETE are left to the SDK
 * (a 405 on GET just means "no standalone stream", as the local server answers).
 */
export function failingFetch(base: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const post = (init?.method ?? 'GET').toUpperCase() === 'POST';
    let response: Response;
    try {
      response = await base(input, init);
    } catch (err) {
      if (!post || (err as Error)?.name === 'AbortError') throw err;
      const code = codeOf(err) ?? codeOf((err as { cause?: unknown })?.cause);
      // A proxy's failure and a certificate's are told in the CLI's words (src/http/network-errors.ts, proxy-errors.ts).
      const worded = code === 'PROXY_ERROR' || failureCode(err) === 'TLS_CERTIFICATE';
      const detail = worded
        ? describeNetworkFailure(err, 0)
        : (code ?? ((err as { cause?: { message?: string } })?.cause?.message || (err as Error)?.message || 'network error'));
      throw new NetworkFailure(`connection to the MCP endpoint failed (${detail})`, code !== undefined && CONNECT_CODES.has(code), { cause: err });
    }
    if (post && response.status >= 400) throw await httpFailureOf(response);
    return response;
  };
}
