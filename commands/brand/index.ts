import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { subjectsCommand } from './subjects.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(withExamples(new Command('brand').description('Brand subjects').addCommand(subjectsCommand(ctx)), ['cr brand subjects']));
}
