import type { IO } from '../io/streams.js';

/**
 * `--jsonl`: one item a line, compact (docs/cli-contract.md "For scripts"). JSON.stringify escapes every
 * C0 control character; the C1 ones, line separators and bidi overrides it leaves are escaped
 * too (still the same JSON), so a line is safe on a terminal.
 */
export function writeJsonl(io: Pick<IO, 'out'>, items: readonly unknown[]): void {
  if (items.length === 0) return;
  io.out.write(
    items
      .map((i) =>
        JSON.stringify(i).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      )
      .join('\n') + '\n',
  );
}
