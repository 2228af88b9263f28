import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { subjectsCommand } from './subjects.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(withExamples(new Command('brand').description('Brand subjects').addCommand(subjectsCommand(ctx)), ['cr brand subjects']));
}
