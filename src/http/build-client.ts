import type { Context } from '../context.js';
import { requireUsable } from '../credentials.js';
import { redactKeys } from '../redact.js';
import { userAgent } from '../version.js';
import { ApiClient, DEFAULT_TIMEOUT_MS } from './client.js';
import { spinnerActivity } from '../io/activity.js';

/**
 * Builds the HTTP core from the resolved credentials, or, with --local, from the embedded
 * server started in this process. Nothing ever falls back to local mode on its own.
 */
export async function buildClient(ctx: Context): Promise<{ client: ApiClient; close: () => Promise<void> }> {
  const g = ctx.globals;
  const log = g.verbose ? (line: string) => ctx.io.err.write(redactKeys(line) + '\n') : undefined;
  const timeoutMs = g.timeout ? g.timeout * 1000 : DEFAULT_TIMEOUT_MS;
  const retryBaseMs = ctx.env.CR_RETRY_BASE_MS ? Number(ctx.env.CR_RETRY_BASE_MS) : undefined;
  // --verbose already narrates each request; a spinner would garble those lines.
  const activity = g.verbose ? undefined : spinnerActivity(ctx.io);
  if (g.local) {
    const { startEmbedded } = await import('../local/embedded.js');
    const local = await startEmbedded(ctx);
    const client = new ApiClient({ baseUrl: local.baseUrl, key: local.key, timeoutMs, userAgent: userAgent(), log, retryBaseMs, activity, dispatcher: ctx.dispatcher });
    return { client, close: async () => { await client.close(); await local.close(); } };
  }
  const creds = requireUsable(await ctx.credentials());
  const client = new ApiClient({ baseUrl: creds.baseUrl, key: creds.key, timeoutMs, userAgent: userAgent(), log, crmSegment: creds.crmSegment, retryBaseMs, activity, dispatcher: ctx.dispatcher });
  return { client, close: () => client.close() };
}
