import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { listCommand } from './list.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('learnings').description('Confirmed learnings from test wins').addCommand(listCommand(ctx)), ['cr learnings list --type hook']),
  );
}
