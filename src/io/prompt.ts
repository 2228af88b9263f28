import { InterruptedError, UsageError } from '../errors.js';
import type { IO } from './streams.js';

/**
 * Questions to the operator. Off a terminal or in CI nothing is asked: the command fails
 * with exit 2 naming the flag that answers the question instead.
 */
export interface Prompter {
  input(message: string, opts: { default?: string; flag: string }): Promise<string>;
  secret(message: string, opts: { flag: string }): Promise<string>;
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
      return interruptible(input({ message, default: opts.default }, { output: process.stderr }));
    },
    async secret(message, opts) {
      if (!canAsk()) return refuse(opts.flag, message);
      const { default: password } = await import('@inquirer/password');
      return interruptible(password({ message, mask: '*' }, { output: process.stderr }));
    },
  };
}

/**
 * Ctrl-C at a prompt: @inquirer's prompts read the terminal in raw mode, so the key is no
 * SIGINT but an ExitPromptError. It is an interruption like any other (exit 130).
 */
async function interruptible<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}
