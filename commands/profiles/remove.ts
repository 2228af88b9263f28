import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { DEFAULT_PROFILE } from '../../src/config/profiles.js';

export const removeCommand = (ctx: Context) =>
  withExamples(
    new Command('remove')
      .description('delete a profile and its key')
      .argument('<name>')
      .action((name: string) => remove(ctx, name)),
    ['cr profiles remove staging'],
  );

export async function remove(ctx: Context, name: string): Promise<void> {
  const store = await ctx.profiles();
  if (!store.get(name)) throw new UsageError(`No profile named "${name}"`, 'run `cr profiles list`');
  const wasActive = store.activeName() === name;
  store.remove(name);
  ctx.notice(`Removed profile ${name}`);
  if (wasActive) ctx.notice(afterActiveRemoved(store.all()));
}

/**
 * What commands use once the active profile is gone: nothing is picked silently, so say
 * so, and how to choose (commands fall back to a profile named "default" when one exists).
 */
function afterActiveRemoved(left: Record<string, unknown>): string {
  const names = Object.keys(left).sort();
  if (names.length === 0) return 'No profiles are left; run `cr auth login` (or `cr local init`) to add one.';
  if (names.includes(DEFAULT_PROFILE))
    return `No profile is active now; commands use the profile "${DEFAULT_PROFILE}". Pick another with \`cr profiles use NAME\` (${names.join(', ')}).`;
  return `No profile is active now; pick one with \`cr profiles use NAME\` (${names.join(', ')}), or pass --profile.`;
}
