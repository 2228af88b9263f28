import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { loginCommand } from './login.js';
import { statusCommand } from './status.js';
import { logoutCommand } from './logout.js';

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    new Command('auth')
      .description('Log in, check and log out API keys')
      .addCommand(loginCommand(ctx))
      .addCommand(statusCommand(ctx))
      .addCommand(logoutCommand(ctx)),
  );
}
