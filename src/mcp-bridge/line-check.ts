import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the bridge does with a line from the agent that the SDK's stdio transport would only drop
 * (and report without an id): it answers as JSON-RPC 2.0 §5.1 says (https://www.jsonrpc.org/specification):
 *
 * - a line that is not JSON: -32700 Parse error, id null;
 * - JSON that is not a JSON-RPC message: -32600 Invalid Request, under the message's id when it
 *   has one the agent could be waiting on (a string or number, and not a response), else id null;
 * - a batch (a JSON array): MCP removed batching in its 2025-06-18 revision (changelog, PR #416),
 *   so no element is sent; as JSON-RPC §6 asks of a batch, the answer is an array with a -32600
 *   for each request (under its id) and each invalid element (id null), none for notifications
 *   or responses, and nothing at all when that leaves it empty; an empty array is one -32600.
 *
 * - a message nested deeper than MAX_DEPTH: -32600 under its id. V8 parses any depth, but the
 *   bridge and the SDK re-serialise each message with the recursive JSON.stringify, which
 *   overflows the stack near 4,000 levels and ended the process (every pending answer lost);
 *   the server refuses values nested past 32 levels anyway (docs/api-decisions.md).
 *
 * A blank line is skipped without an answer.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

type Id = string | number | null;
interface ErrorAnswer {
  jsonrpc: '2.0';
  id: Id;
  error: { code: number; message: string };
}

export type LineVerdict =
  /** A JSON-RPC message: passed on to the SDK's transport. */
  | { pass: true }
  /** Not passed on; `answer` (when any) goes to the agent, `log` to standard error. */
  | { pass: false; answer?: ErrorAnswer | ErrorAnswer[]; log?: string };

const NO_BATCH = 'Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send each message on a line of its own';

/** The deepest nesting of arrays and objects a forwarded message may have. */
export const MAX_DEPTH = 256;

/** Whether the JSON text nests arrays or objects deeper than `max` (brackets inside strings not counted). */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const answer = (id: Id, code: number, message: string): ErrorAnswer => ({ jsonrpc: '2.0', id, error: { code, message } });

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The id an agent may be waiting on: a request's string or number id (a response's id is the server's). */
function idOf(v: unknown): Id {
  if (!isObject(v) || 'result' in v || 'error' in v) return null;
  return typeof v.id === 'string' || typeof v.id === 'number' ? v.id : null;
}

/** A batch element: a request is refused under its id; notifications and responses get nothing. */
function batchAnswer(v: unknown): ErrorAnswer | undefined {
  if (!JSONRPCMessageSchema.safeParse(v).success) return answer(idOf(v), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC message');
  const id = idOf(v);
  return id !== null && isObject(v) && 'method' in v ? answer(id, INVALID_REQUEST, NO_BATCH) : undefined;
}

export function checkLine(line: string): LineVerdict {
  if (line.trim() === '') return { pass: false };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return {
      pass: false,
      answer: answer(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`),
      log: `a line that is not JSON (${line.length} characters): answered ${PARSE_ERROR}`,
    };
  }
  if (Array.isArray(value)) {
    if (value.length === 0)
      return { pass: false, answer: answer(null, INVALID_REQUEST, 'Invalid Request: an empty batch'), log: `an empty batch: answered ${INVALID_REQUEST}` };
    const answers = value.map(batchAnswer).filter((a): a is ErrorAnswer => a !== undefined);
    return {
      pass: false,
      answer: answers.length ? answers : undefined,
      log: `a batch of ${value.length} message(s), not sent (MCP has no batches): ${answers.length} answered ${INVALID_REQUEST}`,
    };
  }
  if (nestedDeeperThan(line, MAX_DEPTH)) {
    const deep = idOf(value);
    return {
      pass: false,
      answer: answer(deep, INVALID_REQUEST, `Invalid Request: nested deeper than ${MAX_DEPTH} levels; not sent to the server`),
      log: `a message nested deeper than ${MAX_DEPTH} levels${deep === null ? '' : ` (id ${JSON.stringify(deep)})`}: answered ${INVALID_REQUEST}`,
    };
  }
  if (JSONRPCMessageSchema.safeParse(value).success) return { pass: true };
  const id = idOf(value);
  return {
    pass: false,
    answer: answer(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC message'),
    log: `a message that is not JSON-RPC${id === null ? '' : ` (id ${JSON.stringify(id)})`}: answered ${INVALID_REQUEST}`,
  };
}
