import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { IO } from '../io/streams.js';
import { CrError, UsageError } from '../errors.js';
import { escapeControls, forStream } from './controls.js';

/** jq's exit status for a program that does not compile (jq 1.7 manual, "Invoking jq"). */
const JQ_COMPILE_ERROR = 3;

/** A jq program that ran but failed on this data (`error`, indexing a string…): exit 1, not a usage error. */
export class JqRuntimeError extends CrError {
  constructor(message: string) {
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

/**
 * jq in a worker thread: once started, jq runs to its end without returning to the event loop,
 * so on the main thread a long program would hold off Ctrl-C and SIGTERM (cli-contract.md §7.1).
 * jq-web reports jq's warnings (`debug`, `stderr`) through console.warn and leaves jq's exit
 * status in the worker's process.exitCode: both stay in the worker, whose output is not shown.
 */
const WORKER = `const { parentPort, workerData: w } = require('node:worker_threads');
const warnings = [];
console.warn = (...args) => void warnings.push(String(args.at(-1)));
Promise.resolve(require(w.path))
  .then((jq) => parentPort.postMessage({ out: jq.raw(w.json, w.expression, ['-r', '-c']), warnings }))
  .catch((e) => parentPort.postMessage({ error: { exitCode: e.exitCode, stderr: e.stderr, message: e.message }, warnings }));`;

interface JqReply {
  out?: string;
  warnings: string[];
  error?: { exitCode?: number; stderr?: string; message?: string };
}

/** Runs jq once (jq 1.7 compiled to WebAssembly: the jq-web package, CONTRIBUTING.md "jq for --jq"). */
async function runJq(json: string, expression: string): Promise<{ out: string | undefined; warnings: string[] }> {
  // Resolved, not imported: jq-web is CommonJS, kept out of the bundle (scripts/bundle.mjs).
  const path = createRequire(import.meta.url).resolve('jq-web');
  const worker = new Worker(WORKER, { eval: true, workerData: { path, json, expression }, stdout: true, stderr: true });
  const reply = await new Promise<JqReply>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (e) => resolve({ warnings: [], error: { message: e.message } }));
  }).finally(() => void worker.terminate());
  if (!reply.error) return { out: reply.out, warnings: reply.warnings };
  const message = `--jq: ${jqMessage(reply.error.stderr, reply.error.message ?? 'jq failed')}`;
  if (reply.error.exitCode === JQ_COMPILE_ERROR) throw new UsageError(message, 'see the jq manual, https://jqlang.org/manual/');
  throw new JqRuntimeError(message);
}

/**
 * Compiles the expression without running it (jq over no input at all compiles the program
 * and stops), so a bad `--jq` is a usage error before any request (docs/cli-contract.md: exit 2, nothing sent).
 */
export async function checkJq(expression: string): Promise<void> {
  await runJq('', expression);
}

/**
 * `--jq EXPR` over the data `--json` would print (docs/cli-contract.md "For scripts"): jq `-r -c`, so
 * strings print raw and every other value as compact JSON, one result a line, as
 * `gh --jq` does. A failure while running is exit 1 with jq's message.
 */
export async function writeJq(io: IO, data: unknown, expression: string): Promise<void> {
  const { out, warnings } = await runJq(JSON.stringify(data ?? null), expression);
  for (const w of warnings) io.err.write(`jq: ${escapeControls(w)}\n`);
  if (out !== undefined) io.out.write(forStream(out, io.tty.out) + '\n');
}
