import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { keysCommand } from './keys/index.js';
import { initCommand } from './init.js';
import { copyCommand } from './copy.js';
import { restoreCommand } from './restore.js';
import { waitCommand } from './wait.js';
import { seedCommand } from './seed.js';
import { exportCommand } from './export.js';
import { websitesCommand } from './websites.js';
import { postsCommand } from './posts.js';
import { resetCommand } from './reset.js';
import { migrateCommand } from './migrate.js';

export function register(program: Command, ctx: Context): void {
  const group = new Command('local').description('Local store: init, seed, export, keys, websites, posts, reset, restore, copy, migrate, wait');
  group.addCommand(initCommand(ctx));
  group.addCommand(seedCommand(ctx));
  group.addCommand(exportCommand(ctx));
  group.addCommand(keysCommand(ctx));
  group.addCommand(websitesCommand(ctx));
  group.addCommand(postsCommand(ctx));
  group.addCommand(resetCommand(ctx));
  group.addCommand(restoreCommand(ctx));
  group.addCommand(copyCommand(ctx));
  group.addCommand(migrateCommand(ctx));
  group.addCommand(waitCommand(ctx));
  program.addCommand(group);
}
