import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { scriptable } from '../../src/output/flags.js';
import { AuthMissingError } from '../../src/errors.js';
import { maskKey } from '../../src/redact.js';
import { writeJson } from '../../src/render/json.js';
import { CRM_PATH_SEGMENT } from '../../src/api/vocabulary.js';

export const statusCommand = (ctx: Context) =>
  scriptable(withExamples(
    new Command('status').description('show the active profile (key masked); exit 3 when none').action(() => status(ctx)),
    ['cr auth status', 'cr auth status --jq .baseUrl']), { jq: true });

export async function status(ctx: Context): Promise<void> {
  const c = await ctx.credentials();
  if (!c.key) throw new AuthMissingError(`Not logged in: no API key for profile "${c.profile}". Run \`cr auth login\` or set CR_API_KEY.`);
  const view = {
    profile: c.profile,
    baseUrl: c.baseUrl ?? null,
    key: maskKey(c.key),
    keySource: c.source.key,
    baseUrlSource: c.source.baseUrl ?? null,
    crmSegment: c.crmSegment ?? CRM_PATH_SEGMENT,
  };
  if (ctx.globals.jq !== undefined) {
    const { writeJq } = await import('../../src/render/jq.js');
    return writeJq(ctx.io, view, ctx.globals.jq);
  }
  if (ctx.globals.json) return writeJson(ctx.io, view);
  const lines = [
    ['profile', `${view.profile}`],
    ['base URL', `${view.baseUrl ?? '(none)'}${view.baseUrlSource ? ` (from ${view.baseUrlSource})` : ''}`],
    ['key', `${view.key} (from ${view.keySource})`],
    ['crm segment', view.crmSegment],
  ];
  const sep = ctx.io.tty.out ? ': ' : '\t';
  ctx.io.out.write(lines.map(([k, v]) => (ctx.io.tty.out ? `${k!.padEnd(12)}${sep}${v}` : `${k}${sep}${v}`)).join('\n') + '\n');
}
