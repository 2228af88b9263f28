import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { gridCommand } from './grid.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('visibility').description('Business profile visibility rank grid').addCommand(gridCommand(ctx)), [
      'cr visibility grid --keyword "plumber near me"',
    ]),
  );
}
