import { Readable } from 'node:stream';
import type { IO } from '../../src/io/streams.js';

export interface TestIO extends IO {
  stdout(): string;
  stderr(): string;
}

/** An in-memory IO: collects what commands write, with chosen TTY/colour facts. */
export function testIO(opts: { tty?: boolean; color?: boolean; columns?: number; stdin?: string; ci?: boolean } = {}): TestIO {
  const out: string[] = [];
  const err: string[] = [];
  const tty = Boolean(opts.tty);
  return {
    out: { write: (t) => void out.push(t) },
    err: { write: (t) => void err.push(t) },
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    tty: { out: tty, err: tty, in: tty },
    color: opts.color ?? tty,
    colorErr: opts.color ?? tty,
    columns: opts.columns ?? 120,
    ci: Boolean(opts.ci),
    env: {},
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
