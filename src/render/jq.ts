import { Worker } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import type { IO } from '../io/streams.js';
import { CrError, EXIT, LocalError, UsageError } from '../errors.js';
import { deadlineIn, remainingMs, type Deadline } from '../http/deadline.js';
import { describeBytes, maxResponseBytes } from '../http/read-body.js';
import { escapeControls, forStream } from './controls.js';
import { JQ_WORKER_SOURCE } from './jq-worker.js';
import { jqSource } from './jq-source.js';

/** jq's exit status for a program that does not compile (jq 1.7 manual, "Invoking jq"). */
const JQ_COMPILE_ERROR = 3;

/** A jq program that ran but failed on this data (`error`, indexing a string…): exit 1, not a usage error. */
export class JqRuntimeError extends CrError {
  constructor(
    message: string,
    /** What the program printed before it failed: printed before the error, as jq does. */
    readonly printed?: string,
  ) {
    super(message, { code: 'JQ' });
  }
}

/** jq's own error lines, joined on one line, without its echo of the program and the error count. */
function jqMessage(stderr: string | undefined, fallback: string): string {
  const errors = (stderr ?? '')
    .split('\n')
    .filter((l) => l.startsWith('jq: error'))
    .map((l) => l.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/:\s*$/, ''));
  return escapeControls(errors.join('; ') || fallback);
}

/** jq's warnings (`debug`, `stderr`) kept at most: past this a program is runaway too. */
const MAX_WARNING_BYTES = 1024 * 1024;

interface JqReply {
  out?: Uint8Array;
  warnings: string[];
  error?: { exitCode?: number; stderr?: string; message?: string };
  /** The worker passed a cap and was stopped. */
  over?: 'output' | 'warnings';
  /** The --timeout deadline passed first. */
  timedOut?: boolean;
}

export interface JqLimits {
  /** Bytes of output at most (the response cap, CR_MAX_RESPONSE_BYTES). */
  cap: number;
  /** What is left of --timeout, when one was given. */
  deadline?: Deadline;
}

/**
 * Runs jq once (jq 1.7 compiled to WebAssembly: the jq-web package, docs/benchmarks-analysis.md, "jq for `--jq`: the candidates measured")
 * in a worker thread: once started, jq runs to its end without returning to the event loop,
 * so on the main thread a long program would hold off Ctrl-C and SIGTERM (cli-contract.md §7.1),
 * and here the worker can be terminated when its output passes the cap or --timeout runs out
 * (src/render/jq-worker.ts). jq-web reports jq's warnings through console.warn and leaves jq's
 * exit status in the worker's process.exitCode: both stay in the worker, whose output is not shown.
 */
async function runJq(json: string, expression: string, limits: JqLimits): Promise<{ out: string | undefined; warnings: string[] }> {
  // jq-web's file in node_modules, or none in the single executable (src/render/jq-source.ts).
  const workerData = { ...jqSource(), json, expression, cap: limits.cap, errCap: MAX_WARNING_BYTES };
  wasmBaselineOnly();
  const worker = new Worker(JQ_WORKER_SOURCE, { eval: true, workerData, stdout: true, stderr: true });
  let timer: NodeJS.Timeout | undefined;
  const reply = await new Promise<JqReply>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (e) => resolve({ warnings: [], error: { message: e.message } }));
    if (limits.deadline) timer = setTimeout(() => resolve({ warnings: [], timedOut: true }), remainingMs(limits.deadline));
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
  if (reply.timedOut)
    throw new LocalError(`--jq: the program was still running when --timeout ${limits.deadline!.seconds} s ran out; nothing was printed`, EXIT.network, {
      code: 'TIMEOUT',
    });
  if (reply.over) {
    const what =
      reply.over === 'output'
        ? `its output passed the ${describeBytes(limits.cap)} cap (CR_MAX_RESPONSE_BYTES)`
        : `its warnings passed ${describeBytes(MAX_WARNING_BYTES)}`;
    throw new LocalError(`--jq: the program was stopped: ${what}; nothing was printed`, EXIT.failure, { code: 'JQ_OUTPUT_TOO_LARGE' });
  }
  if (!reply.error) return { out: reply.out ? new TextDecoder().decode(reply.out) : undefined, warnings: reply.warnings };
  const message = `--jq: ${jqMessage(reply.error.stderr, reply.error.message ?? 'jq failed')}`;
  if (reply.error.exitCode === JQ_COMPILE_ERROR) throw new UsageError(message, 'see the jq manual, https://jqlang.org/manual/');
  throw new JqRuntimeError(message, reply.out ? new TextDecoder().decode(reply.out) : undefined);
}

/**
 * jq runs as WebAssembly; V8 optimises hot wasm in background threads that process exit must
 * wait for: ~40 ms a run for a CLI that runs it briefly, where the baseline compiler alone is
 * plenty (docs/benchmarks-analysis.md, rule 8). Set here, before the worker compiles jq, and
 * not at start: V8 flags are part of the hash every code cache must match, so set at start
 * it made every run compile Node's own modules from source (src/startup/run-bundle.ts).
 */
function wasmBaselineOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * Compiles the expression without running it (jq over no input at all compiles the program
 * and stops), so a bad `--jq` is a usage error before any request (docs/cli-contract.md: exit 2, nothing sent).
 */
export async function checkJq(expression: string): Promise<void> {
  await runJq('', expression, { cap: MAX_WARNING_BYTES });
}

/**
 * `--jq EXPR` over the data `--json` would print (docs/cli-contract.md "For scripts"): jq `-r -c`, so
 * strings print raw and every other value as compact JSON, one result a line, as
 * `gh --jq` does. A failure while running is exit 1 with jq's message; output past the response
 * cap (64 MiB, CR_MAX_RESPONSE_BYTES) is exit 1 `JQ_OUTPUT_TOO_LARGE`, and a program still running
 * when --timeout runs out is exit 8 `TIMEOUT` (docs/cli-contract.md §5), nothing printed either way.
 */
export async function writeJq(io: IO, data: unknown, expression: string, time: { timeout?: number; deadline?: Deadline } = {}): Promise<void> {
  // The deadline a request already started, else one from now (a command that sent nothing).
  const deadline = time.deadline ?? (time.timeout ? deadlineIn(time.timeout) : undefined);
  let result: { out: string | undefined; warnings: string[] };
  try {
    result = await runJq(JSON.stringify(data ?? null), expression, { cap: maxResponseBytes(io.env), deadline });
  } catch (e) {
    // As jq does: what came before a runtime error is printed, then the error.
    if (e instanceof JqRuntimeError && e.printed) io.out.write(forStream(e.printed, io.tty.out) + '\n');
    throw e;
  }
  const { out, warnings } = result;
  for (const w of warnings) io.err.write(`jq: ${escapeControls(w)}\n`);
  if (out !== undefined) io.out.write(forStream(out, io.tty.out) + '\n');
}
