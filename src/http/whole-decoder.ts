import { Transform, type TransformCallback } from 'node:stream';
import type * as Zlib from 'node:zlib';

/**
 * One Content-Encoding's decoder, held to the end of its compressed data: bytes after it (a
 * body that is not only what its Content-Encoding says) fail the body instead of being dropped
 * without a word. zlib's inflate and brotli stop reading at their stream's end and take more
 * input in silence; this counts what went in against what they read (`bytesWritten`).
 *
 * `pick` makes the decoder from the body's first two bytes: `Content-Encoding: deflate` as
 * browsers and curl read it (deflateEither) means the zlib format (RFC 1950), but some servers
 * send raw deflate (RFC 1951) under that name, and the first two bytes tell them apart (a zlib
 * header: compression method 8, and a check that makes them a multiple of 31).
 */
export class WholeDecoder extends Transform {
  private inner?: Zlib.Zlib & Transform;
  private head = Buffer.alloc(0);
  private fed = 0;
  private innerEnded = false;

  constructor(private readonly pick: (head: Buffer) => Zlib.Zlib & Transform) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.inner) return void this.feed(chunk, done);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 2) return void done();
    this.start(this.head);
    this.feed(this.head, done);
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner && this.head.length === 0) return void done();
    if (!this.inner) {
      this.start(this.head);
      this.feed(this.head, () => undefined);
    }
    const inner = this.inner!;
    // zlib ends its output at the end of the compressed data, which may come before the body's
    // end (then 'end' is already past): waiting for it again would wait for ever.
    const check = () =>
      done(this.fed > inner.bytesWritten ? new Error(`${this.fed - inner.bytesWritten} byte(s) after the end of its compressed data`) : undefined);
    if (this.innerEnded) return void check();
    inner.once('end', check);
    inner.end();
  }

  private feed(chunk: Buffer, done: () => void): void {
    this.fed += chunk.length;
    // Past the end of the compressed data: zlib would take these in silence; counted, then refused at the end.
    if (this.innerEnded) return void done();
    this.inner!.write(chunk, () => done());
  }

  private start(head: Buffer): Zlib.Zlib & Transform {
    const inner = this.pick(head);
    inner.on('data', (d: Buffer) => this.push(d));
    inner.on('end', () => {
      this.innerEnded = true;
    });
    inner.on('error', (err) => this.destroy(err));
    this.inner = inner;
    return inner;
  }
}

/** `Content-Encoding: deflate`, with or without its zlib header. */
export function deflateEither(zlib: typeof Zlib): WholeDecoder {
  return new WholeDecoder((head) => {
    const zlibHeader = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
    return zlibHeader ? zlib.createInflate() : zlib.createInflateRaw();
  });
}
