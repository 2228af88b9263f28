/**
 * JSON text that is safe on a terminal and still the same JSON (docs/cli-contract.md "At a
 * terminal"). JSON.stringify escapes the C0 controls but leaves DEL, the C1 controls (among them
 * the one-byte CSI 0x9b), the line and paragraph separators and the invisible direction marks
 * and overrides raw; each is written as its `\uNNNN` escape, which every JSON parser reads back
 * as the same character. The one writer of JSON for `--json`, `--jsonl`, bulk reports and store
 * exports, so they agree on one set (the terminal's own escaping is src/render/escape.ts).
 */
import { INVISIBLE_FORMAT, SEPARATORS } from './escape.js';

const RAW_IN_JSON = new RegExp(`[\\u007f-\\u009f${SEPARATORS}${INVISIBLE_FORMAT}]`, 'g');

export function safeJson(data: unknown, indent?: number): string {
  return JSON.stringify(data, null, indent).replace(RAW_IN_JSON, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}
