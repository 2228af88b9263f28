import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scheduleCommand } from './schedule.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('posts').description('Social posts: scheduling').addCommand(scheduleCommand(ctx)), [
      'cr posts schedule 3b2f9c1e-2d1a-4c8e-9a51-7d0e4f2b6e91 --at +2h',
    ]),
  );
}
