import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { createCommand } from './create.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('ads').description('Ad creatives').addCommand(createCommand(ctx)), [
      'cr ads create --format single_image --name "Spring sale" --url https://shop.example.com/spring',
    ]),
  );
}
