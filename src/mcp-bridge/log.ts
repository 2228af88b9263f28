import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { redactKeys } from '../config/redact.js';
import { escapeControls } from '../render/escape.js';

/**
 * Text from the agent, the server or the API is never written raw to a log (docs/cli-contract.md, "At a
 * terminal"): control characters (C0 including newline, DEL, C1) are shown escaped, keys
 * masked, and the line is kept short.
 */
export function oneLine(text: string, max = 300): string {
  const escaped = escapeControls(redactKeys(text));
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}

/** `tools/call #3 listBrandSubjects`, `notifications/progress`, `result #3`, `error #3`: never params. */
export function describeMessage(m: JSONRPCMessage): string {
  const id = 'id' in m && m.id !== undefined ? ` #${String(m.id)}` : '';
  if ('method' in m) {
    const params = (m as { params?: { name?: unknown } }).params;
    const tool = m.method === 'tools/call' && typeof params?.name === 'string' ? ` ${params.name}` : '';
    return oneLine(`${m.method}${id}${tool}`, 120);
  }
  return oneLine(`${'error' in m ? 'error' : 'result'}${id}`, 120);
}
