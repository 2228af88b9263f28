import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { listCommand } from './list.js';
import { useCommand } from './use.js';
import { removeCommand } from './remove.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    new Command('profiles').description('Stored key profiles').addCommand(listCommand(ctx)).addCommand(useCommand(ctx)).addCommand(removeCommand(ctx)),
  );
}
