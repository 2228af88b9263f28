import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

/** Placeholder until the brand commands land. */
export function register(program: Command, _ctx: Context): void {
  program.addCommand(new Command('brand').description('not available yet').action(() => { throw new UsageError('cr brand is not available yet'); }));
}
