import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

/** Placeholder until the crm commands land. */
export function register(program: Command, _ctx: Context): void {
  program.addCommand(new Command('crm').description('not available yet').action(() => { throw new UsageError('cr crm is not available yet'); }));
}
