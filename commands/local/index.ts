import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { keysCommand } from './keys/index.js';
import { initCommand } from './init.js';
import { restoreCommand } from './restore.js';
import { waitCommand } from './wait.js';

export function register(program: Command, ctx: Context): void {
  const group = new Command('local').description('Local store: init, keys, restore, wait');
  group.addCommand(initCommand(ctx));
  group.addCommand(keysCommand(ctx));
  group.addCommand(restoreCommand(ctx));
  group.addCommand(waitCommand(ctx));
  program.addCommand(group);
}
