import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { AuthMissingError } from '../../src/errors.js';
import { maskKey, redactUrlPassword } from '../../src/config/redact.js';
import { writeJson } from '../../src/render/json.js';
import { CRM_PATH_SEGMENT } from '../../src/api/vocabulary.js';
import type { RateBudget } from '../../src/http/rate-budget.js';

export const statusCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('status')
        .description("show the active profile (key masked) and the key's rate budget from a check request; exit 3 when none or rejected")
        .action(() => status(ctx)),
      ['cr auth status', 'cr auth status --jq .rateLimit.remaining'],
    ),
    { jq: true },
  );

/**
 * One check request with the key (the one `cr auth login` makes), for its rate-limit headers:
 * how many requests are left and when the window resets (src/http/rate-budget.ts).
 */
async function checkBudget(ctx: Context, target: { baseUrl: string; key: string; crmSegment?: string }): Promise<{ budget?: RateBudget; failure?: unknown }> {
  const [{ routes }, { budgetOf }] = await Promise.all([import('../../src/api/routes.js'), import('../../src/http/rate-budget.js')]);
  const client = await ctx.connect(target);
  const url = client.urlFor(routes.getFinanceSummary);
  // Only the status and headers matter here, not the body: a rejected key (401) or a 429 is
  // the command's error; any other answer still carries the budget.
  const res = await client.send('GET', url);
  const budget = budgetOf(res.headers);
  try {
    if (res.status === 401 || res.status === 429) client.unwrap('GET', url, res);
  } catch (failure) {
    return { budget, failure };
  }
  return { budget };
}

export async function status(ctx: Context): Promise<void> {
  const c = await ctx.credentials();
  if (!c.key) throw new AuthMissingError(`Not logged in: no API key for profile "${c.profile}". Run \`cr auth login\` or set CR_API_KEY.`);
  // The profile is shown even when the check fails; the check's error then sets the exit code.
  let budget: RateBudget | undefined;
  let failure: unknown;
  if (c.baseUrl) {
    const { requireUsable } = await import('../../src/config/credentials.js');
    try {
      ({ budget, failure } = await checkBudget(ctx, requireUsable(c)));
    } catch (err) {
      failure = err;
    }
  }
  const view = {
    profile: c.profile,
    baseUrl: c.baseUrl ? redactUrlPassword(c.baseUrl) : null,
    key: maskKey(c.key),
    keySource: c.source.key,
    baseUrlSource: c.source.baseUrl ?? null,
    crmSegment: c.crmSegment ?? CRM_PATH_SEGMENT,
    rateLimit: budget ? { limit: budget.limit, remaining: budget.remaining, reset: budget.resetAt.toISOString() } : null,
  };
  if (ctx.globals.jq !== undefined) {
    const { writeJq } = await import('../../src/render/jq.js');
    await writeJq(ctx.io, view, ctx.globals.jq, ctx.globals);
    if (failure) throw failure;
    return;
  }
  if (ctx.globals.json) {
    writeJson(ctx.io, view);
    if (failure) throw failure;
    return;
  }
  const { whenText } = await import('../../src/http/rate-budget.js');
  const lines = [
    ['profile', `${view.profile}`],
    ['base URL', `${view.baseUrl ?? '(none)'}${view.baseUrlSource ? ` (from ${view.baseUrlSource})` : ''}`],
    ['key', `${view.key} (from ${view.keySource})`],
    ['crm segment', view.crmSegment],
    [
      'rate limit',
      budget
        ? `${budget.remaining} of ${budget.limit} requests left; resets ${whenText(budget.resetAt, budget.resetInMs)}`
        : failure
          ? '(check failed)'
          : '(not reported)',
    ],
  ];
  const sep = ctx.io.tty.out ? ': ' : '\t';
  ctx.io.out.write(lines.map(([k, v]) => (ctx.io.tty.out ? `${k!.padEnd(12)}${sep}${v}` : `${k}${sep}${v}`)).join('\n') + '\n');
  if (failure) throw failure;
}
