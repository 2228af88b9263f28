import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { listCommand } from './list.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(withExamples(new Command('nurture').description('Nurture sequences').addCommand(listCommand(ctx)), ['cr nurture list --all --json']));
}
