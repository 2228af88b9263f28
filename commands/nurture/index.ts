import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { listCommand } from './list.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(withExamples(new Command('nurture').description('Nurture sequences').addCommand(listCommand(ctx)), ['cr nurture list --all --json']));
}
