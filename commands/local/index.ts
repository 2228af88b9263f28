import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

/** Placeholder until the local commands land. */
export function register(program: Command, _ctx: Context): void {
  program.addCommand(new Command('local').description('not available yet').action(() => { throw new UsageError('cr local is not available yet'); }));
}
