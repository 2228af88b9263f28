import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { agentsCommand } from './agents.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(withExamples(new Command('crm').description('CRM AI agents').addCommand(agentsCommand(ctx)), ['cr crm agents']));
}
