import type { IO } from '../io/streams.js';
import type { CsvTable } from '../render/csv.js';
import type { ScriptFlags } from './flags.js';
import type { Deadline } from '../http/deadline.js';
import { writeJsonl } from '../render/jsonl.js';
import { writeIds } from '../render/quiet.js';

/** What a command hands the one output decision (src/render/output.ts). */
export interface RenderOptions extends Partial<ScriptFlags> {
  json: boolean;
  /** The API's data exactly as received: what --json prints and --jq filters. */
  data: unknown;
  /** A list command's raw items, for --jsonl. */
  items?: readonly unknown[];
  /** --timeout in seconds, and the deadline it set when a request started it (src/cli/context.ts): --jq runs within it. */
  timeout?: number;
  deadline?: Deadline;
}

/** What the script forms read of a rendered block (src/render/output.ts Block). */
export interface ScriptBlock {
  csv?(): CsvTable;
  ids?(): string[];
  /** One page of a longer list: said on stderr after --csv and --jsonl (docs/cli-contract.md "At a terminal"). */
  partial?: string;
}

export const isScripted = (o: Partial<ScriptFlags>): boolean => o.jq !== undefined || Boolean(o.csv || o.jsonl || o.quiet);

/**
 * The script forms of an output (docs/cli-contract.md "For scripts"). One CSV stream holds one table, so
 * --csv and -q take the first block (finance: the entity rows; its invoice alerts are in
 * --json and --jq). Which command takes which flag is checked before it runs (flags.ts).
 */
export async function renderScript(io: IO, opts: RenderOptions, blocks: readonly ScriptBlock[]): Promise<void> {
  if (opts.jq !== undefined) {
    const { writeJq } = await import('../render/jq.js');
    return writeJq(io, opts.data, opts.jq, opts);
  }
  const first = blocks[0];
  // Like piped TSV, a page of a longer list is never dropped silently; -q keeps stderr for errors.
  const partial = () => {
    if (first?.partial) io.err.write(first.partial + '\n');
  };
  if (opts.jsonl) {
    writeJsonl(io, opts.items ?? (Array.isArray(opts.data) ? opts.data : [opts.data]));
    return partial();
  }
  if (opts.csv) {
    const table = first?.csv?.();
    if (!table) return;
    const { writeCsv } = await import('../render/csv.js');
    await writeCsv(io, table, { header: opts.headers !== false, safe: opts.csvSafe });
    return partial();
  }
  if (opts.quiet) return writeIds(io, first?.ids?.() ?? []);
}
