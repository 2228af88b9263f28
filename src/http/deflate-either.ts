import { Transform, type TransformCallback } from 'node:stream';
import type * as Zlib from 'node:zlib';

/**
 * `Content-Encoding: deflate` as browsers and curl read it: RFC 9110 means the zlib format
 * (RFC 1950), but some servers send raw deflate (RFC 1951) under that name. The first two bytes
 * tell them apart (a zlib header: compression method 8, and a check that makes them a
 * multiple of 31); the body then goes through inflate or inflateRaw.
 */
export class DeflateEither extends Transform {
  private inner?: Transform;
  private head = Buffer.alloc(0);

  constructor(
    private readonly zlib: typeof Zlib,
    private readonly options: Zlib.ZlibOptions,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.inner) return void this.inner.write(chunk, () => done());
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 2) return void done();
    this.start(this.head);
    this.inner!.write(this.head, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner && this.head.length === 0) return void done();
    if (!this.inner) this.start(this.head).write(this.head);
    this.inner!.once('end', () => done());
    this.inner!.end();
  }

  private start(head: Buffer): Transform {
    const zlibHeader = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
    const inner = zlibHeader ? this.zlib.createInflate(this.options) : this.zlib.createInflateRaw(this.options);
    inner.on('data', (d: Buffer) => this.push(d));
    inner.on('error', (err) => this.destroy(err));
    this.inner = inner;
    return inner;
  }
}
