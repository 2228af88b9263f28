import type { IO } from '../io/streams.js';
import { table, writeTsv, type Block } from './block.js';
import { writeJson } from './json.js';
import type { View } from './view.js';

export { table, type Block } from './block.js';
import { isScripted, renderScript, type RenderOptions } from '../output/script.js';

type Output<T> = View<T> | Block | readonly Block[];
const isBlockList = <T>(o: Output<T>): o is readonly Block[] => Array.isArray(o);
const isView = <T>(o: View<T> | Block): o is View<T> => 'columns' in o;

/**
 * The one output decision (docs/cli-contract.md §4): `--json` prints the API's data exactly;
 * off a terminal the same rows as plain TSV (coloured only when FORCE_COLOR says so); on
 * a terminal tables (or a block's own drawing) with colour.
 */
export async function render<T>(io: IO, opts: RenderOptions, output: Output<T>): Promise<void> {
  const blocks = isBlockList(output) ? output : [isView(output) ? table(output) : output];
  // --jq, --csv, --jsonl, -q (docs/cli-contract.md "For scripts").
  if (isScripted(opts)) return renderScript(io, opts, blocks);
  if (opts.json) return writeJson(io, opts.data);
  if (!io.tty.out) return writeTsv(io, blocks);
  const s = (await import('./styles.js')).styles(io.color);
  const parts: string[] = [];
  for (const block of blocks) {
    let text = block.title ? s.bold(block.title) + '\n' : '';
    text += await block.draw(s, io.columns, { wide: opts.wide, headers: opts.headers });
    if (block.footer) text += '\n' + s.dim(block.footer);
    parts.push(text);
  }
  io.out.write(parts.join('\n\n') + '\n');
}
