import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

/** Placeholder until the finance commands land. */
export function register(program: Command, _ctx: Context): void {
  program.addCommand(new Command('finance').description('not available yet').action(() => { throw new UsageError('cr finance is not available yet'); }));
}
