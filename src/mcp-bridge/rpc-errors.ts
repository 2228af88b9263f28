import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { redactKeys } from '../config/redact.js';
import { HttpFailure, NetworkFailure } from './failures.js';

/**
 * JSON-RPC error codes the bridge answers with when `<base>/mcp` could not answer. They sit
 * in the implementation-defined server range (-32000..-32099) of JSON-RPC 2.0, one per
 * thing an agent can do something about; `data` carries the HTTP status, the API's code and,
 * for 429, when to retry (docs/mcp.md, "MCP over stdio").
 */
export const RPC = {
  /** Network failure or an unexpected HTTP status. */
  upstream: -32000,
  /** 401: the profile's key was refused (revoked, unknown). */
  unauthorized: -32001,
  /** 403: the key may not do this. */
  forbidden: -32003,
  /** 429: the key's rate budget is spent; retry later. */
  rateLimited: -32029,
} as const;

export interface FailureContext {
  /** The profile whose key was used (named in the 401 hint); undefined with --local. */
  profile?: string;
  /** Where the key came from and what to run (src/config/credentials.ts refusedKeyAdvice): the 401 hint when given. */
  keyAdvice?: string;
  /** Why a failed send was not retried, when that matters (a write may have been applied). */
  notRetried?: string;
}

function secondsText(s: number): string {
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? '' : 's'}`;
  if (s >= 120) return `${Math.ceil(s / 60)} minutes`;
  return `${s} second${s === 1 ? '' : 's'}`;
}

/** The JSON-RPC error object for a failure (message in the API's words, plus what to do). */
export function rpcErrorOf(err: unknown, ctx: FailureContext = {}): JSONRPCErrorResponse['error'] {
  if (err instanceof HttpFailure) {
    const data = {
      status: err.status,
      code: err.apiCode ?? null,
      ...(err.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: err.retryAfterSeconds }),
      ...(err.retryAt ? { retryAt: err.retryAt } : {}),
    };
    if (err.status === 401) {
      const how = ctx.keyAdvice ?? (ctx.profile ? `run \`cr auth login --profile ${ctx.profile}\` with a valid key` : 'the local key was refused');
      return { code: RPC.unauthorized, message: `${err.apiMessage} (HTTP 401): ${how}, then restart this MCP server`, data };
    }
    if (err.status === 403) return { code: RPC.forbidden, message: `${err.apiMessage} (HTTP 403)`, data };
    if (err.status === 429) {
      const when =
        err.retryAfterSeconds !== undefined
          ? `retry after ${secondsText(err.retryAfterSeconds)}${err.retryAt ? ` (at ${err.retryAt})` : ''}`
          : err.retryAt
            ? `retry at ${err.retryAt}`
            : 'retry later';
      return { code: RPC.rateLimited, message: `${err.apiMessage} (HTTP 429); ${when}`, data };
    }
    // The server refuses a body over 1 MiB before any handler runs (docs/api-decisions.md).
    if (err.status === 413) return { code: RPC.upstream, message: `${err.apiMessage} (HTTP 413): a request is at most 1 MiB; nothing was applied`, data };
    return { code: RPC.upstream, message: `${err.apiMessage} (HTTP ${err.status})`, data };
  }
  const base = err instanceof NetworkFailure ? err.message : `MCP endpoint error: ${redactKeys((err as Error)?.message ?? String(err))}`;
  return { code: RPC.upstream, message: ctx.notRetried ? `${base}; ${ctx.notRetried}` : base, data: { status: null, code: 'NETWORK_ERROR' } };
}

export const errorResponse = (id: RequestId, error: JSONRPCErrorResponse['error']): JSONRPCErrorResponse => ({ jsonrpc: '2.0', id, error });
