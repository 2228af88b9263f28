import { writeSync } from 'node:fs';

/**
 * One synchronous write: no stream is made for a page or the version (the stream modules
 * cost more than the text). A reader that left (EPIPE) ends the run quietly, as the bundle
 * does (docs/exit-codes.md); a pipe that is full and non-blocking (EAGAIN) takes the rest
 * through process.stdout, which waits for it, with the bundle's EPIPE handling; any other
 * failure (a full disk) is one line on stderr and exit 1.
 */
export function writeWhole(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code === 'EAGAIN') {
      process.stdout.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(0);
        cannotWrite(e.code);
      });
      process.stdout.write(bytes.subarray(done));
      return;
    }
    cannotWrite(code);
  }
}

function cannotWrite(code: string | undefined): void {
  process.stderr.write(`cr: cannot write to standard output (${code ?? 'error'})\n`);
  process.exitCode = 1;
}
