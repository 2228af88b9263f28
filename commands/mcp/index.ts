import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { configCommand } from './config.js';
import { stdioCommand } from './stdio.js';

export function register(program: Command, ctx: Context): void {
  const group = new Command('mcp').description('MCP: client configuration and the stdio bridge for desktop agents');
  group.addCommand(configCommand(ctx));
  group.addCommand(stdioCommand(ctx));
  program.addCommand(group);
}
