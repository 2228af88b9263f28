import { writeSync } from 'node:fs';

/**
 * One synchronous write: no stream is made for a page or the version (the stream modules
 * cost more than the text). A reader that left (EPIPE) ends the run quietly, as the bundle does; a pipe that is
 * full and non-blocking (EAGAIN) takes the rest through process.stdout, which waits for it.
 */
export function writeWhole(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw err;
    process.stdout.write(bytes.subarray(done));
  }
}
