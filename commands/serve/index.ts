import type { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { serveCommand } from './serve.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(serveCommand(ctx));
}
