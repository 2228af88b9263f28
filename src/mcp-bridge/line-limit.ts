import { Transform, type TransformCallback } from 'node:stream';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest line the bridge reads from the agent: the SDK's stdio ReadBuffer default. Past
 * it the SDK's transport closes itself and the bridge would stop answering with stdin still
 * open; instead such a line is dropped here and answered under its id (docs/mcp.md, "MCP over stdio").
 */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How much of each end of a dropped line is kept to find its id. */
const EDGE = 4096;

export interface Oversized {
  bytes: number;
  /** The message's id, when its first or last bytes show one at the top level. */
  id: RequestId | undefined;
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"id":…` or `{"jsonrpc":"2.0","id":…` at the start (most clients). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** `…,"id":…}` at the very end (the SDK's clients write it last); one brace, so not a nested id. */
const ID_LAST = new RegExp(String.raw`,\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

function idOf(head: Buffer, tail: Buffer): RequestId | undefined {
  const m = ID_FIRST.exec(head.toString('utf8')) ?? ID_LAST.exec(tail.toString('utf8'));
  try {
    return m ? (JSON.parse(m[1]!) as RequestId) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passes the agent's lines through whole (one push each, so the SDK's buffer never holds more
 * than one), and drops a line longer than `max` without buffering it, reporting its size and id.
 */
export class LineLimit extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private dropped?: { head: Buffer; tail: Buffer };

  constructor(
    private readonly onOversized: (o: Oversized) => void,
    private readonly max = MAX_LINE_BYTES,
    /** Whether a whole line goes on to the transport (line-check.ts answers those that do not). */
    private readonly accept: (line: Buffer) => boolean = () => true,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    for (let start = 0; ; ) {
      const nl = chunk.indexOf(0x0a, start);
      this.collect(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) break;
      this.endLine(true);
      start = nl + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.size > 0) this.endLine(false);
    done();
  }

  private collect(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.dropped) {
      this.dropped.tail = Buffer.concat([this.dropped.tail, piece]).subarray(-EDGE);
    } else if (this.size > this.max) {
      const all = Buffer.concat([...this.parts, piece]);
      this.dropped = { head: Buffer.from(all.subarray(0, EDGE)), tail: Buffer.from(all.subarray(-EDGE)) };
      this.parts = [];
    } else {
      this.parts.push(piece);
    }
  }

  private endLine(newline: boolean): void {
    if (this.dropped) this.onOversized({ bytes: this.size, id: idOf(this.dropped.head, this.dropped.tail) });
    else {
      const line = Buffer.concat(this.parts);
      if (this.accept(line)) this.push(newline ? Buffer.concat([line, Buffer.from('\n')]) : line);
    }
    this.parts = [];
    this.size = 0;
    this.dropped = undefined;
  }
}
