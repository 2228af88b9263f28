import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';

export const removeCommand = (ctx: Context) =>
  withExamples(
    new Command('remove').description('delete a profile and its key').argument('<name>').action((name: string) => remove(ctx, name)),
    ['cr profiles remove staging'],
  );

export async function remove(ctx: Context, name: string): Promise<void> {
  const store = await ctx.profiles();
  if (!store.get(name)) throw new UsageError(`No profile named "${name}"`, 'run `cr profiles list`');
  store.remove(name);
  ctx.notice(`Removed profile ${name}`);
}
