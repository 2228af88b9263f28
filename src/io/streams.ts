import { fstatSync, writeSync } from 'node:fs';
/**
 * The IO seen by commands: two text sinks, stdin, and the facts that decide rendering.
 * Commands never touch process.* directly, so tests can run them in-process.
 */
export interface Sink {
  write(text: string): void;
}

export interface IO {
  out: Sink;
  err: Sink;
  stdin: NodeJS.ReadableStream;
  /** Whether each stream is a terminal (CR_FORCE_TTY=1 forces both, for tests). */
  tty: { out: boolean; err: boolean; in: boolean };
  /** Colour on stdout / stderr after NO_COLOR, FORCE_COLOR and --no-color. */
  color: boolean;
  colorErr: boolean;
  columns: number;
  /** CI is set: no spinner, no prompt. */
  ci: boolean;
  env: NodeJS.ProcessEnv;
  /** A pager may be started on this terminal (src/io/pager.ts): only the process's own IO, not a test's in-memory one. */
  canPage?: boolean;
}

function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Colour decision: --no-color and NO_COLOR win, then FORCE_COLOR, then "is it a terminal". */
export function colorEnabled(env: NodeJS.ProcessEnv, isTty: boolean, noColorFlag = false): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTty;
}

/** What the process (or a test) tells about its streams; the env decides the rest. */
export interface StreamFacts {
  out: Sink;
  err: Sink;
  stdin: NodeJS.ReadableStream;
  isTTY: { out: boolean; err: boolean; in: boolean };
  /** The terminal width, when stdout is one. */
  columns?: number;
  canPage?: boolean;
}

/** The IO for these streams under this env: TTY forcing, colour, width, CI. */
export function createIO(env: NodeJS.ProcessEnv, facts: StreamFacts, noColor = false): IO {
  const forced = envFlag(env.CR_FORCE_TTY);
  const tty = {
    out: forced || facts.isTTY.out,
    err: forced || facts.isTTY.err,
    // Read when asked (a prompt, a spinner under -q): see processIO.
    get in() {
      return facts.isTTY.in;
    },
  };
  const width = Number(env.COLUMNS) || facts.columns || 80;
  return {
    out: facts.out,
    err: facts.err,
    get stdin() {
      return facts.stdin;
    },
    tty,
    color: colorEnabled(env, tty.out, noColor),
    colorErr: colorEnabled(env, tty.err, noColor),
    columns: width,
    ci: envFlag(env.CI),
    env,
    canPage: facts.canPage,
  };
}

/**
 * The process's own streams. stdin is touched only by the commands that read it (`--with-key`,
 * `--input -`, prompts): process.stdin builds its stream on first access, and for a file or
 * /dev/null that is an fs.ReadStream, which loads Node's fs streams and fs/promises
 * (with readline): ~3.5 ms of every run that never reads stdin (CONTRIBUTING.md, start-up rules).
 */
export function processIO(env: NodeJS.ProcessEnv = process.env, noColor = false): IO {
  return createIO(
    env,
    {
      out: stdoutSink(),
      err: { write: (t) => void process.stderr.write(t) },
      get stdin() {
        return process.stdin;
      },
      isTTY: {
        out: Boolean(process.stdout.isTTY),
        err: Boolean(process.stderr.isTTY),
        get in() {
          return Boolean(process.stdin.isTTY);
        },
      },
      columns: process.stdout.columns,
      // A real terminal only: CR_FORCE_TTY renders for one but may write to a pipe.
      canPage: Boolean(process.stdout.isTTY),
    },
    noColor,
  );
}

/**
 * Standard output's sink. To a regular file Node writes each chunk with one writeSync and drops
 * what a short write left (its SyncWriteStream ignores the count): on a disk with some room
 * but not enough, the output was cut and the run ended 0 without a word. To a file, every byte
 * goes out here, and a write that fails is standard output's error, which src/main.ts reports
 * (one line, exit 1). Pipes and terminals keep process.stdout, which waits for a slow reader.
 */
function stdoutSink(): Sink {
  let toFile = false;
  try {
    toFile = fstatSync(1).isFile();
  } catch {
    // No fd 1 to ask about: process.stdout decides.
  }
  if (!toFile) return { write: (t) => void process.stdout.write(t) };
  return {
    write: (t) => {
      const bytes = Buffer.from(t, 'utf8');
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(1, bytes, done);
      } catch (err) {
        process.stdout.emit('error', err);
      }
    },
  };
}

/** Reads all of stdin as text (for `--with-key` and `--input -`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}

/**
 * The stream's bytes, as they came (for a reader that checks their encoding itself); once
 * past `max` bytes it stops reading and returns what it has (longer than `max`: too long).
 */
export async function readAllBytes(stream: NodeJS.ReadableStream, max = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(b);
    total += b.length;
    if (total > max) break;
  }
  return Buffer.concat(chunks);
}
