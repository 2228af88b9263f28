import type { Context } from './context.js';
import type { Route } from '../api/routes.js';
import type { CallInput } from '../http/client.js';
import { redactKeys } from '../config/redact.js';
import { writeJson } from '../render/json.js';

/**
 * `--dry-run` on a write: prints the request that would be sent (method, full URL, JSON
 * body) to stdout and sends nothing. With --json the same as one object, for scripts.
 */
export async function printDryRun(ctx: Context, ep: Route, input: CallInput): Promise<void> {
  const url = redactKeys(await dryRunUrl(ctx, ep, input));
  const body = input.body ?? {};
  if (ctx.globals.json) return writeJson(ctx.io, { method: ep.method, url, body });
  ctx.io.out.write(`${ep.method} ${url}\n`);
  writeJson(ctx.io, body);
  ctx.notice('dry run: nothing was sent');
}

/** The URL the request would go to. Needs a base URL but no key: nothing is sent. */
async function dryRunUrl(ctx: Context, ep: Route, input: CallInput): Promise<string> {
  if (ctx.globals.local) return (await ctx.api()).urlFor(ep, input);
  const [{ requireUsable }, { endpointUrl }] = await Promise.all([import('../config/credentials.js'), import('../http/url.js')]);
  const creds = requireUsable(await ctx.credentials(), { key: false });
  return endpointUrl(creds.baseUrl, ep, input, creds.crmSegment);
}
