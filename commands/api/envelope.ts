import type { Context } from '../../src/cli/context.js';
import type { ApiClient, RawResponse } from '../../src/http/client.js';

const isEnvelope = (body: unknown) => !!body && typeof body === 'object' && (body as { success?: unknown }).success === true && 'data' in body;

/**
 * What `cr api` prints of a response: the envelope's `data`, as every command; a JSON body of a
 * success that has no envelope (`/openapi.json`, a health document) whole, as `gh api` prints
 * any body (docs/commands.md "cr api"), said with --verbose: parsed and printed as every JSON
 * answer (indented, --jq and --jsonl apply), so not byte for byte. Errors and non-JSON bodies are
 * the client's to judge (`unwrap`).
 */
export function responseData(ctx: Context, client: ApiClient, method: string, url: string, res: RawResponse): unknown {
  if (res.status < 400 && res.body !== undefined && !isEnvelope(res.body)) {
    if (ctx.globals.verbose)
      ctx.io.err.write('cr api: the response has no {"success", "data"} envelope; printed whole (parsed and indented as JSON, not byte for byte)\n');
    return res.body;
  }
  return client.unwrap(method, url, res).data;
}
