import type { IO } from '../io/streams.js';
import { safeJson } from './safe-json.js';

/**
 * `--jsonl`: one item a line, compact (docs/cli-contract.md "For scripts"). JSON.stringify escapes every
 * C0 control character; the C1 ones, line separators and bidi overrides it leaves are escaped
 * too (still the same JSON), so a line is safe on a terminal.
 */
export function writeJsonl(io: Pick<IO, 'out'>, items: readonly unknown[]): void {
  if (items.length === 0) return;
  io.out.write(items.map((i) => safeJson(i)).join('\n') + '\n');
}
