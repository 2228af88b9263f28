import { createRequire } from 'node:module';
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
 * Runs jq once (jq 1.7 compiled to WebAssembly: the jq-web package, CONTRIBUTING.md "jq for
 * --jq"), loaded on first use only. jq-web reports jq's warnings (`debug`, `stderr`) through
 * console.warn and leaves jq's exit status in process.exitCode: both are taken back here, so
 * only cr decides what is printed and how the process ends.
 */
async function runJq(json: string, expression: string): Promise<{ out: string | undefined; warnings: string[] }> {
  // Required, not imported: jq-web is CommonJS, kept out of the bundle (scripts/bundle.mjs), and
  // the bundle runs as a classic script, where import() of a file is not available.
  const jq = await (createRequire(import.meta.url)('jq-web') as typeof import('jq-web').default);
  const warnings: string[] = [];
  const warn = console.warn;
  const exitCode = process.exitCode;
  console.warn = (...args: unknown[]) => void warnings.push(String(args.at(-1)));
  try {
    return { out: jq.raw(json, expression, ['-r', '-c']), warnings };
  } catch (e) {
    const err = e as { exitCode?: number; stderr?: string; message?: string };
    const message = `--jq: ${jqMessage(err.stderr, err.message ?? 'jq failed')}`;
    if (err.exitCode === JQ_COMPILE_ERROR) throw new UsageError(message, 'see the jq manual, https://jqlang.org/manual/');
    throw new JqRuntimeError(message);
  } finally {
    console.warn = warn;
    process.exitCode = exitCode;
  }
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
