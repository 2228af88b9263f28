import type { ApiClient } from '../http/client.js';
import { routes } from '../api/routes.js';
import { checkJson } from '../api/check-json.js';
import { responseSchemas } from '../api/generated/response-schemas.js';
import { ApiError, CrError, NetworkError, ResponseError, exitCodeOf } from '../errors.js';
import { isRetryableStatus } from '../http/retry.js';
import { redactKeys } from '../config/redact.js';
import type { PlanRow } from './types.js';

/** What one send came back with: the data, or a typed failure with its exit code. */
export type SendOutcome =
  | { ok: true; scheduledAt: string; status: number; headers: Record<string, string> }
  | { ok: false; status?: number; headers: Record<string, string>; error: string; code: string; exit: number; retryable?: boolean };

export type Sender = (row: PlanRow) => Promise<SendOutcome>;

/**
 * POST /social/posts/{id}/schedule for one row, through the HTTP core. Its send/unwrap
 * steps are used rather than call(): the run needs the X-RateLimit headers of error
 * answers too (a 429's Reset), which a thrown ApiError does not carry. The row's
 * website_id goes in the query, as the single-post form sends --website: the body
 * schema has scheduled_at only (docs/api-decisions.md), and the server reads website_id from
 * either place.
 */
/** The exit code of a store that cannot be used (docs/exit-codes.md). */
const STORE_UNUSABLE = 78;

export function restSender(client: ApiClient, globalWebsite?: string): Sender {
  const ep = routes.scheduleSocialPost;
  return async (row) => {
    const website = row.websiteId ?? globalWebsite;
    const url = client.urlFor(ep, { params: { id: row.id }, query: website ? { website_id: website } : {} });
    let headers: Record<string, string> = {};
    let status: number | undefined;
    try {
      const res = await client.send(ep.method, url, { scheduled_at: row.wire });
      headers = res.headers;
      status = res.status;
      const { data } = client.unwrap(ep.method, url, res);
      const problem = checkJson(responseSchemas[ep.operationId], data);
      if (problem) throw new ResponseError(`Unexpected response from ${ep.method} ${url}: data.${problem.path.join('.')}: ${problem.message}`, { status });
      return { ok: true, scheduledAt: String((data as { scheduledAt: unknown }).scheduledAt), status, headers };
    } catch (err) {
      // The store itself cannot be used (--local over an invalid store file: exit 78,
      // docs/exit-codes.md): every row would meet it, so it ends the run, as at open.
      if (exitCodeOf(err) === STORE_UNUSABLE) throw err;
      const code = err instanceof CrError && err.code ? err.code : err instanceof ApiError ? `HTTP_${err.status}` : 'INTERNAL';
      // Sent again by the runner (--retry): a gateway status or a connection lost on the way.
      const retryable = err instanceof NetworkError ? err.retryable : err instanceof ApiError && isRetryableStatus(err.status);
      return { ok: false, status, headers, error: redactKeys(detailOf(err)), code, exit: exitCodeOf(err), retryable };
    }
  };
}

/**
 * One format for every failure detail: the words alone, code beside them in reports (the
 * request is the same on every row, so neither an API error nor a network one names it).
 */
function detailOf(err: unknown): string {
  if (err instanceof ApiError) return err.apiMessage;
  if (err instanceof NetworkError) {
    const suffix = ` (${err.method} ${err.url})`;
    return err.message.endsWith(suffix) ? err.message.slice(0, -suffix.length) : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
