import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { keysCommand } from './keys/index.js';
import { initCommand } from './init.js';
import { restoreCommand } from './restore.js';

export function register(program: Command, ctx: Context): void {
  const group = new Command('local').description('Local store: init, keys, restore');
  group.addCommand(initCommand(ctx));
  group.addCommand(keysCommand(ctx));
  group.addCommand(restoreCommand(ctx));
  program.addCommand(group);
}
