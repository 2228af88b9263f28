import { Command } from 'commander';
import type { Context } from '../../../src/cli/context.js';
import { createCommand } from './create.js';
import { listCommand } from './list.js';
import { revokeCommand } from './revoke.js';

export const keysCommand = (ctx: Context) =>
  new Command('keys').description('API keys of the local store').addCommand(createCommand(ctx)).addCommand(listCommand(ctx)).addCommand(revokeCommand(ctx));
