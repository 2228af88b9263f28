import { InterruptedError, UsageError } from '../errors.js';
import { escapeControls } from '../render/controls.js';
import type { IO } from './streams.js';

/**
 * Reads an answer into what the command uses, or throws a UsageError saying what is wrong
 * with it: the question is then asked again.
 */
export type AnswerCheck = (answer: string) => string;

/**
 * Questions to the operator. Off a terminal or in CI nothing is asked: the command fails
 * with exit 2 naming the flag that answers the question instead. An answer its `check`
 * refuses is said on stderr and the question asked again, TRIES times in all; the last
 * refusal is the command's error (exit 2).
 */
export interface Prompter {
  input(message: string, opts: { default?: string; flag: string; check?: AnswerCheck }): Promise<string>;
  secret(message: string, opts: { flag: string; check?: AnswerCheck }): Promise<string>;
}

/** How many answers a question takes before the command gives up (exit 2). */
export const TRIES = 3;

async function askUntil(io: IO, ask: () => Promise<string>, check: AnswerCheck | undefined): Promise<string> {
  for (let left = TRIES - 1; ; left--) {
    const answer = await ask();
    if (!check) return answer;
    try {
      return check(answer);
    } catch (error) {
      if (!(error instanceof UsageError) || left === 0) throw error;
      const hint = error.hint ? `; ${error.hint}` : '';
      io.err.write(`${escapeControls(error.message + hint)} (${left} ${left === 1 ? 'try' : 'tries'} left)\n`);
    }
  }
}

export function createPrompter(io: IO): Prompter {
  const canAsk = () => io.tty.in && io.tty.err && !io.ci;
  const refuse = (flag: string, message: string): never => {
    throw new UsageError(`Cannot ask "${message}" here (not a terminal, or CI is set); pass ${flag}`);
  };
  return {
    async input(message, opts) {
      if (!canAsk()) return refuse(opts.flag, message);
      // The two prompts' own packages, not @inquirer/prompts: an import() of that index bundles
      // every prompt it re-exports, the editor's iconv-lite and chardet among them (560 KB of
      // the 1.9 MB bundle that every run reads; CONTRIBUTING.md "How cr starts", rule 11).
      const { default: input } = await import('@inquirer/input');
      return askUntil(io, () => interruptible((signal) => input({ message, default: opts.default }, { output: process.stderr, signal })), opts.check);
    },
    async secret(message, opts) {
      if (!canAsk()) return refuse(opts.flag, message);
      const { default: password } = await import('@inquirer/password');
      return askUntil(io, () => interruptible((signal) => password({ message, mask: '*' }, { output: process.stderr, signal })), opts.check);
    },
  };
}

/**
 * Ctrl-C at a prompt: @inquirer's prompts read the terminal in raw mode, so the key is no
 * SIGINT but an ExitPromptError. It is an interruption like any other (exit 130).
 * Ctrl-D (or any end of input) closes the prompt's readline without settling its answer:
 * nothing is left to wait on and Node would end with exit 0 and no answer. 'beforeExit'
 * fires exactly then; the prompt is aborted and that too is an interruption (exit 130,
 * docs/exit-codes.md).
 */
async function interruptible<T>(ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const inputEnded = new AbortController();
  const onDrained = () => inputEnded.abort();
  process.once('beforeExit', onDrained);
  try {
    return await ask(inputEnded.signal);
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw new InterruptedError();
    throw error;
  } finally {
    process.off('beforeExit', onDrained);
  }
}
