import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';

export const useCommand = (ctx: Context) =>
  withExamples(
    new Command('use')
      .description('make a profile the active one')
      .argument('<name>')
      .action((name: string) => use(ctx, name)),
    ['cr profiles use staging'],
  );

export async function use(ctx: Context, name: string): Promise<void> {
  const store = await ctx.profiles();
  if (!store.get(name)) throw new UsageError(`No profile named "${name}"`, 'run `cr profiles list`');
  store.use(name);
  ctx.notice(`Active profile: ${name}`);
}
