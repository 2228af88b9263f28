import type { IO } from '../io/streams.js';
import { forStream } from './controls.js';

/** `-q`: ids only, one a line, for `xargs` (docs/cli-contract.md "For scripts"). */
export function writeIds(io: Pick<IO, 'out' | 'tty'>, ids: readonly string[]): void {
  if (ids.length === 0) return;
  io.out.write(forStream(ids.join('\n'), io.tty.out) + '\n');
}
