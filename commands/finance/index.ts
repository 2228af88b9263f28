import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { summaryCommand } from './summary.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(new Command('finance').description('Revenue, costs and invoice alerts of your business entities').addCommand(summaryCommand(ctx)), [
      'cr finance summary',
      'cr finance summary --json | jq .invoiceAlerts',
    ]),
  );
}
