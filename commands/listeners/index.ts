import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { createCommand } from './create.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('listeners').description('Content listeners on external sources').addCommand(createCommand(ctx)), [
      'cr listeners create --name "Node subreddit" --source reddit --query subreddit=node',
    ]),
  );
}
