import { STATUS_CODES } from 'node:http';
import type { Context } from '../../src/cli/context.js';
import type { RawResponse } from '../../src/http/client.js';
import { redactKeys } from '../../src/config/redact.js';
import { escapeControls } from '../../src/render/controls.js';
import { writeJson } from '../../src/render/json.js';
import { writeJsonl } from '../../src/render/jsonl.js';

/**
 * `--include`: the status line and the response headers, as `gh api -i` shows them, on
 * standard error, so standard output stays the body a script parses (docs/cli-contract.md §4).
 */
export function printHead(ctx: Context, res: RawResponse): void {
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd(), ...Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`)];
  ctx.io.err.write(escapeControls(redactKeys(lines.join('\n')), { multiline: true }) + '\n\n');
}

/** The result in the form asked for: --jq, --jsonl (items of a list), else JSON (2-space). */
export async function printData(ctx: Context, data: unknown): Promise<void> {
  const g = ctx.globals;
  if (g.jq !== undefined) {
    const { writeJq } = await import('../../src/render/jq.js');
    return writeJq(ctx.io, data, g.jq, g);
  }
  if (g.jsonl) return writeJsonl(ctx.io, itemsOf(data));
  writeJson(ctx.io, data);
}

/** --jsonl without --paginate: an array's elements, an object's one list, else the value itself. */
export function itemsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const arrays = Object.values(data).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
  }
  return [data];
}
